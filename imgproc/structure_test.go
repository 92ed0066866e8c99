package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStructureFindsTheObject: a bright card, a dark card, stripes, a soft shadow over a
// lightly textured scene and a thin dark ring on flat skin each bring more structure than
// the scene has at the same place — whichever picture is called "with".
func TestStructureFindsTheObject(t *testing.T) {
	const w, h, c = 64, 48, 3
	rng := rand.New(rand.NewPCG(3, 4))
	scene := make([]float64, w*h*c)
	for i := range scene {
		scene[i] = 0.45 + 0.05*rng.Float64()
	}
	skin := make([]float64, w*h*c)
	for i := range skin {
		skin[i] = 0.8
	}
	in := func(x, y int) bool { return x >= 20 && x < 40 && y >= 14 && y < 34 }
	type object struct {
		under string
		paint func(x, y, ch int, v float64) (float64, bool)
	}
	objects := map[string]object{
		"bright card": {"scene", func(x, y, ch int, v float64) (float64, bool) { return 0.95, in(x, y) }},
		"dark card":   {"scene", func(x, y, ch int, v float64) (float64, bool) { return 0.1, in(x, y) }},
		"stripes": {"scene", func(x, y, ch int, v float64) (float64, bool) {
			return 0.1 + 0.8*float64(((x+y)/3+ch)%2), in(x, y)
		}},
		"shadow": {"scene", func(x, y, ch int, v float64) (float64, bool) {
			d := math.Hypot(float64(x)-29.5, float64(y)-23.5) / 10
			return v * (1 - 2.0/3*math.Min(1, math.Max(0, (1-d)/0.3))), true
		}},
		"thin ring": {"skin", func(x, y, ch int, v float64) (float64, bool) {
			r := math.Hypot(float64(x)-30, float64(y)-24)
			return 0.2, r > 7 && r < 8.5
		}},
	}
	for name, o := range objects {
		under := scene
		if o.under == "skin" {
			under = skin
		}
		with := append([]float64(nil), under...)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for ch := 0; ch < c; ch++ {
					i := (y*w+x)*c + ch
					if v, ok := o.paint(x, y, ch, under[i]); ok {
						with[i] = v
					}
				}
			}
		}
		sWithout, sWith := Structure(under, with, w, h, c)
		if !(sWith > 2*sWithout) {
			t.Errorf("%s: structure with %.4f, without %.4f", name, sWith, sWithout)
		}
		// Named the other way round, the answer follows the pictures, not the names.
		if a, b := Structure(with, under, w, h, c); a != sWith || b != sWithout {
			t.Errorf("%s: swapped, %.4f and %.4f", name, a, b)
		}
	}
	for _, bad := range [][2][]float64{{scene, scene}, {scene[:10], scene}, {nil, nil}} {
		if a, b := Structure(bad[0], bad[1], w, h, c); a != 0 || b != 0 {
			t.Errorf("identical or ill-sized pictures: %v, %v", a, b)
		}
	}
}
