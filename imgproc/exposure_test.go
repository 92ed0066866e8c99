package imgproc

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"featurelab/internal/accuracy"
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
	var mu sync.Mutex
	heard := map[int]bool{}
	e := d.MeasureExposure(func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if total != 41 || heard[done] {
			t.Errorf("progress %d of %d, again or of the wrong total", done, total)
		}
		heard[done] = true
	})
	if e.Count() != 41 {
		t.Fatalf("%d of 41 pictures measured", e.Count())
	}
	if len(heard) != 41 {
		t.Errorf("progress heard of %d of the 41 pictures", len(heard))
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
	for i, g := range d.MeasureExposure(nil).Gains {
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
	e := dark.MeasureExposure(nil)
	if e.Count() != 0 {
		t.Errorf("dark: %d pictures measured, want none", e.Count())
	}
	for i, g := range e.Gains {
		if g != 1 {
			t.Errorf("dark: picture %d has gain %v, want 1", i, g)
		}
	}
	for i, g := range noise.MeasureExposure(nil).Gains {
		if math.Abs(g-1) > 0.02 {
			t.Errorf("noise: picture %d has gain %v, want about 1", i, g)
		}
	}
	if g, ok := GainAgainst(make([]float32, 5), make([]float32, 4), 5, 1, 1); ok || g != 1 {
		t.Errorf("ill-sized picture: gain %v, %v", g, ok)
	}
}

// BenchmarkMeasureExposure: 200 colour pictures of 64×48 that tell their gains, and the
// same with most of each picture too dark to measure and an object over the rest, so that
// none tells it (as the real tabletop); "thorough" is the plain way that sorts everything
// (measureExposureThorough), side by side.
func BenchmarkMeasureExposure(b *testing.B) {
	gains, _ := exposedFolder(200, 0.2)
	dark, _ := exposedFolder(200, 0.2)
	for i := range 200 {
		row := dark.Row(i)
		for j := range row {
			if x := j / 3 % 64; x < 40 {
				row[j] *= 0.06
			} else if (j/3/64/12+x/8+i)%2 == 0 {
				row[j] *= 1.3 // an object over half the tiles left
			}
		}
	}
	for _, f := range []struct {
		name string
		d    *Dataset
	}{{"gains", gains}, {"none", dark}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.d.MeasureExposure(nil)
			}
		})
		b.Run(f.name+"/thorough", func(b *testing.B) {
			for b.Loop() {
				measureExposureThorough(f.d)
			}
		})
	}
}

// sameExposure fails t when fast and thorough measures of a folder differ in any gain,
// any picture measured or any sample of the reference (which the fast one leaves out when
// no picture tells its gain).
func sameExposure(t *testing.T, what string, fast, thorough Exposure) {
	t.Helper()
	if !slices.Equal(fast.Gains, thorough.Gains) || !slices.Equal(fast.Measured, thorough.Measured) {
		t.Errorf("%s: gains %v measured %v, thoroughly %v %v", what, fast.Gains, fast.Measured, thorough.Gains, thorough.Measured)
	}
	if thorough.Count() == 0 && fast.Reference != nil || thorough.Count() > 0 && !slices.Equal(fast.Reference, thorough.Reference) {
		t.Errorf("%s: the reference differs from the thorough one", what)
	}
}

// TestExposureAsThorough: MeasureExposure — medians by selection, tiles too dark skipped
// once for all pictures, a picture dropped once too few tiles are left to tell its gain —
// gives exactly the answer of sorting everything (measureExposureThorough), on folders
// that tell gains (bright and dim scenes), that tell none (too dark, noise, another
// picture's gains on each half) and with NaN, ties and tiny pictures.
func TestExposureAsThorough(t *testing.T) {
	folders := map[string]*Dataset{}
	folders["gains"], _ = exposedFolder(41, 0.2)
	folders["dim gains"], _ = exposedFolder(120, 0.03)
	dark, _ := exposedFolder(21, 0)
	for i := range dark.Pixels {
		dark.Pixels[i] *= 0.06
	}
	folders["dark"] = dark
	noise, _ := exposedFolder(21, 0.2)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range noise.Pixels {
		noise.Pixels[i] = float32(0.1 + 0.8*rng.Float64())
	}
	folders["noise"] = noise
	// Quantised like 8-bit pictures, many samples tie; a few are NaN, as a PFM may hold.
	ties, _ := exposedFolder(30, 0.1)
	for i := range ties.Pixels {
		ties.Pixels[i] = float32(math.Round(float64(ties.Pixels[i])*16) / 16)
		if i%997 == 0 {
			ties.Pixels[i] = float32(math.NaN())
		}
	}
	folders["ties and NaN"] = ties
	// As on the real tabletop, most tiles too dark to measure, and a mottled object over
	// as many of the others as the picture's number (0 to 24): the first pictures tell
	// their gain, the later ones have too few tiles left that count.
	mottled, _ := exposedFolder(25, 0.2)
	for i := range 25 {
		row := mottled.Row(i)
		for y := range 48 {
			for x := range 64 {
				for ch := range 3 {
					j := (y*64+x)*3 + ch
					switch tile := y/6*8 + x/8; {
					case x < 40:
						row[j] *= 0.06
					case (tile/8)*3+(tile%8-5) < i:
						row[j] *= float32(1 + 0.5*rng.Float64())
					}
				}
			}
		}
	}
	folders["mottled"] = mottled
	folders["tiny"] = &Dataset{Width: 3, Height: 2, Channels: 1, Names: make([]string, 4), Pixels: []float32{
		0.5, 0.6, 0.7, 0.8, 0.9, 1, 0.55, 0.66, 0.77, 0.88, 0.99, 1, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6}}
	for what, d := range folders {
		sameExposure(t, what, d.MeasureExposure(nil), measureExposureThorough(d))
	}
	if folders["gains"].MeasureExposure(nil).Count() == 0 || folders["dark"].MeasureExposure(nil).Count() != 0 {
		t.Errorf("the folders no longer test both a folder that tells gains and one that does not")
	}
}

// TestSelectNth: the value at k of a selection is that of a sort, for every k, on
// random, sorted, reversed, equal and NaN-holding slices.
func TestSelectNth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 3, 12, 13, 14, 40, 101, 1000} {
		cases := map[string][]float32{"random": {}, "sorted": {}, "reversed": {}, "equal": {}, "few values": {}, "NaN": {}}
		for i := range n {
			cases["random"] = append(cases["random"], rng.Float32())
			cases["sorted"] = append(cases["sorted"], float32(i))
			cases["reversed"] = append(cases["reversed"], float32(n-i))
			cases["equal"] = append(cases["equal"], 0.5)
			cases["few values"] = append(cases["few values"], float32(rng.IntN(3)))
			v := rng.Float32()
			if rng.IntN(5) == 0 {
				v = float32(math.NaN())
			}
			cases["NaN"] = append(cases["NaN"], v)
		}
		for what, a := range cases {
			sorted := slices.Clone(a)
			slices.Sort(sorted)
			for k := range n {
				b := slices.Clone(a)
				got := selectNth(b, k)
				if !(got == sorted[k] || got != got && sorted[k] != sorted[k]) {
					t.Fatalf("%s, %d values: element %d is %v, sorted %v", what, n, k, got, sorted[k])
				}
				for i := range b {
					if i < k && less32(got, b[i]) || i > k && less32(b[i], got) {
						t.Fatalf("%s, %d values, k = %d: %v at %d is on the wrong side", what, n, k, b[i], i)
					}
				}
			}
		}
	}
}

// TestExposureAsThoroughRealData: on the real data sets (skipped when absent) the fast
// measure answers exactly as the thorough one: the tabletop and the dice tell no gain,
// ORL a few pictures', the cards every picture's.
func TestExposureAsThoroughRealData(t *testing.T) {
	accuracy.Check(t)
	if testing.Short() {
		t.Skip("loads four real data sets")
	}
	for _, name := range []string{"tabletop", "orl_faces", "cards", "dice"} {
		t.Run(name, func(t *testing.T) {
			d, err := Load(context.Background(), accuracy.SharedData(t, name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			sameExposure(t, name, d.MeasureExposure(nil), measureExposureThorough(d))
		})
	}
}

// less32 is slices.Sort's order of float32: NaN before every number.
func less32(a, b float32) bool { return a < b || (a != a && b == b) }
