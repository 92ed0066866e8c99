package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exposedFolder is n pictures of 64×48 colour of one textured scene (samples in
// lo…lo+0.7), each taken at a gain within ±10 % and with an object — dark or bright —
// over a fifth of it at a place of its own, and the true gains.
func exposedFolder(n int, lo float64) (*Dataset, []float64) {
	const w, h, c = 64, 48, 3
	rng := rand.New(rand.NewPCG(1, 2))
	scene := make([]float64, w*h*c)
	for j := range scene {
		scene[j] = lo + 0.7*rng.Float64()
	}
	d := &Dataset{Width: w, Height: h, Channels: c, Names: make([]string, n), Pixels: make([]float32, n*w*h*c)}
	truth := make([]float64, n)
	for i := range truth {
		truth[i] = 0.9 + 0.2*rng.Float64()
		x0, y0 := rng.IntN(w-28), rng.IntN(h-22)
		row := d.Row(i)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for ch := 0; ch < c; ch++ {
					j := (y*w+x)*c + ch
					v := scene[j]
					if x >= x0 && x < x0+28 && y >= y0 && y < y0+22 {
						v = []float64{0.02, 0.98}[i%2] // an object, dark or bright
					}
					row[j] = float32(v*truth[i] + 0.002*rng.NormFloat64())
				}
			}
		}
	}
	return d, truth
}

// TestMeasureExposure: the gains of pictures of one scene, each with an object over a
// fifth of it, are measured within 1.5 % of the truth (against the reference, the median
// picture, whose own gain is about 1); divided out, they measure 1; a new picture's gain
// is measured against the reference alike.
func TestMeasureExposure(t *testing.T) {
	d, truth := exposedFolder(41, 0.2)
	e := d.MeasureExposure()
	if e.Count() != 41 {
		t.Fatalf("%d of 41 pictures measured", e.Count())
	}
	// The reference is the median picture: the gains are the truth over its gain.
	scale := e.Gains[0] / truth[0]
	for i, g := range e.Gains {
		if want := truth[i] * scale; math.Abs(g/want-1) > 0.015 {
			t.Errorf("picture %d: gain %.4f, want %.4f", i, g, want)
		}
	}
	if math.Abs(scale-1) > 0.05 {
		t.Errorf("the reference's own gain is %.3f, want about 1", 1/scale)
	}
	if lo, hi := e.Range(); lo < 0.85 || hi > 1.15 || hi-lo < 0.1 {
		t.Errorf("range %.3f…%.3f, want about 0.9…1.1", lo, hi)
	}
	row := append([]float32(nil), d.Row(3)...)
	if g, ok := GainAgainst(row, e.Reference, d.Width, d.Height, d.Channels); !ok || math.Abs(g-e.Gains[3]) > 1e-9 {
		t.Errorf("GainAgainst gives %.4f (%v), MeasureExposure %.4f", g, ok, e.Gains[3])
	}
	d.DivideExposure(e.Gains)
	for i, g := range d.MeasureExposure().Gains {
		if math.Abs(g-1) > 0.01 {
			t.Errorf("after dividing, picture %d has gain %.4f", i, g)
		}
	}
}

// TestExposureRefusesWhatItCannotTell: on a scene too dark to measure (the real
// tabletop's black table) no gain is kept: every picture stays as it was taken. Pictures
// of noise, with no scene in common, measure as they were taken: about 1.
func TestExposureRefusesWhatItCannotTell(t *testing.T) {
	dark, _ := exposedFolder(21, 0)
	for i := range dark.Pixels {
		dark.Pixels[i] *= 0.06 // the scene under the floor, the bright object above it
	}
	noise, _ := exposedFolder(21, 0.2)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range noise.Pixels {
		noise.Pixels[i] = float32(0.1 + 0.8*rng.Float64())
	}
	e := dark.MeasureExposure()
	if e.Count() != 0 {
		t.Errorf("dark: %d pictures measured, want none", e.Count())
	}
	for i, g := range e.Gains {
		if g != 1 {
			t.Errorf("dark: picture %d has gain %v, want 1", i, g)
		}
	}
	for i, g := range noise.MeasureExposure().Gains {
		if math.Abs(g-1) > 0.02 {
			t.Errorf("noise: picture %d has gain %v, want about 1", i, g)
		}
	}
	if g, ok := GainAgainst(make([]float32, 5), make([]float32, 4), 5, 1, 1); ok || g != 1 {
		t.Errorf("ill-sized picture: gain %v, %v", g, ok)
	}
}

// BenchmarkMeasureExposure: 200 colour pictures of 64×48 (2 000 of 192×128, nine times
// the samples each, took 2.7 s on 2 cores).
func BenchmarkMeasureExposure(b *testing.B) {
	d, _ := exposedFolder(200, 0.2)
	for b.Loop() {
		d.MeasureExposure()
	}
}
