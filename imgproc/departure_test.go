package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDepartureFindsTheObject: on a textured scene, a bright card, a soft shadow darker
// than the scene, and stripes whose mean is the scene's own mean each depart from the
// scene more than the scene does at the same place — whichever picture is called "with".
func TestDepartureFindsTheObject(t *testing.T) {
	const w, h, c = 64, 48, 3
	rng := rand.New(rand.NewPCG(3, 4))
	scene := make([]float64, w*h*c)
	for i := range scene {
		scene[i] = 0.45 + 0.1*rng.Float64()
	}
	in := func(x, y int) bool { return x >= 20 && x < 40 && y >= 14 && y < 34 }
	objects := map[string]func(x, y, ch int, v float64) float64{
		"bright card": func(x, y, ch int, v float64) float64 { return 0.95 },
		"shadow": func(x, y, ch int, v float64) float64 {
			d := math.Hypot(float64(x)-29.5, float64(y)-23.5) / 10
			return v * (1 - 2.0/3*math.Min(1, math.Max(0, (1-d)/0.3)))
		},
		"stripes": func(x, y, ch int, v float64) float64 {
			if ((x+y)/3+ch)%2 == 0 {
				return 0.1
			}
			return 0.9
		},
	}
	for name, object := range objects {
		with := append([]float64(nil), scene...)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if in(x, y) || name == "shadow" {
					for ch := 0; ch < c; ch++ {
						i := (y*w+x)*c + ch
						with[i] = object(x, y, ch, scene[i])
					}
				}
			}
		}
		dWithout, dWith := Departure(scene, with, w, h, c)
		if !(dWith > 2*dWithout) {
			t.Errorf("%s: departure with %.4f, without %.4f", name, dWith, dWithout)
		}
		// Named the other way round, the answer follows the pictures, not the names.
		if a, b := Departure(with, scene, w, h, c); a != dWith || b != dWithout {
			t.Errorf("%s: swapped, %.4f and %.4f", name, a, b)
		}
	}
	if a, b := Departure(scene, scene, w, h, c); a != 0 || b != 0 {
		t.Errorf("identical pictures: %v, %v", a, b)
	}
}
