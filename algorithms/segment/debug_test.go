package segment

import (
	"context"
	"testing"
)

func TestDebugBand(t *testing.T) {
	img, truth := bandImage(64, 48, 1)
	opt, _ := Options{Width: 0.5, Seed: 1, Cell: 8}.withDefaults()
	p, _ := newPixels(img, false)
	m := newKPYP(p, opt)
	m.initialise(context.Background(), opt)
	t.Log("init\n" + asciiLabels(m.labels, 64, 48, 2))
	opt.Progress = func(it int, b float64) {
		if it%5 == 0 || it < 4 {
			t.Logf("it %d bound %.1f RI %.3f\n%s", it, b, RandIndex(m.labels, truth), asciiLabels(m.labels, 64, 48, 4))
		}
	}
	m.run(context.Background(), opt)
	t.Logf("final RI %.3f\n%s", RandIndex(m.labels, truth), asciiLabels(m.labels, 64, 48, 4))
}
