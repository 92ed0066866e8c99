package segment

import (
	"context"
	"testing"
)

func TestDebugScreen(t *testing.T) {
	img, _ := blocksImage(64, 48, 1)
	opt, _ := Options{Width: 0.5, Seed: 1}.withDefaults()
	p, _ := newPixels(img, false)
	m := newKPYP(p, opt)
	m.initialise(context.Background(), opt)
	for i := 0; i < 30; i++ {
		b, _ := m.iterate(i == 0)
		sc := m.newScreen()
		t.Logf("it %d pass bound %.6f screen %.6f diff %.3g", i, b, m.screenBound(sc), m.screenBound(sc)-b)
	}
}
