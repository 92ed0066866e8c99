package describe

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/imgproc"
)

// noise is n pictures of w × h × c of uniform noise, the first half darker.
func noise(n, w, h, c int) *imgproc.Dataset {
	rng := rand.New(rand.NewPCG(3, 4))
	ds := &imgproc.Dataset{Width: w, Height: h, Channels: c, Pixels: make([]float32, n*w*h*c)}
	for i := range n {
		ds.Names = append(ds.Names, string(rune('a'+i))+".png")
		row := ds.Row(i)
		for p := range row {
			row[p] = rng.Float32()
			if i < n/2 {
				row[p] *= 0.3
			}
		}
	}
	return ds
}

// TestRowsAreFrequencies: every histogram and every bag of words is a row of
// non-negative frequencies summing to 1, of the documented width.
func TestRowsAreFrequencies(t *testing.T) {
	for _, c := range []int{1, 3} {
		ds := noise(6, 32, 24, c)
		hist, err := Histograms(context.Background(), ds)
		if err != nil {
			t.Fatal(err)
		}
		cells := HistogramBinsGrey
		if c == 3 {
			cells = HistogramBinsColour * HistogramBinsColour * HistogramBinsColour
		}
		words, err := Words(context.Background(), ds, 7, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		for name, m := range map[string]*mat.Dense{"histogram": hist, "words": words} {
			n, cols := m.Dims()
			if want := map[string]int{"histogram": cells, "words": 7}[name]; n != 6 || cols != want {
				t.Fatalf("%d channels, %s: %d × %d, want 6 × %d", c, name, n, cols, want)
			}
			for i := range n {
				row := m.RawRowView(i)
				if floats.Min(row) < 0 || math.Abs(floats.Sum(row)-1) > 1e-9 {
					t.Errorf("%d channels, %s row %d sums to %v (min %v)", c, name, i, floats.Sum(row), floats.Min(row))
				}
			}
		}
	}
}

// TestWordsSameForAnyWorkers: the vocabulary and the bags depend on the seed, not on the
// number of workers.
func TestWordsSameForAnyWorkers(t *testing.T) {
	ds := noise(8, 40, 32, 3)
	one, err := Words(context.Background(), ds, 12, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 8} {
		got, err := Words(context.Background(), ds, 12, 5, w)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(one, got) {
			t.Errorf("%d workers give other bags than 1", w)
		}
	}
}

// TestWordsRefuseWhatTheyCannot: too small pictures, a negative vocabulary and a
// cancelled context each give an error, not a panic.
func TestWordsRefuseWhatTheyCannot(t *testing.T) {
	if _, err := Words(context.Background(), noise(4, 6, 6, 1), 5, 1, 1); err == nil {
		t.Error("6×6 pictures: no error")
	}
	if _, err := Words(context.Background(), noise(4, 32, 32, 1), -1, 1, 1); err == nil {
		t.Error("−1 words: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Words(ctx, noise(4, 32, 32, 1), 5, 1, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := Histograms(ctx, noise(4, 32, 32, 1)); !errors.Is(err, context.Canceled) {
		t.Errorf("histograms cancelled: %v, want context.Canceled", err)
	}
}
