package cluster

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBregmanDivergenceValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  bregman
		x, mu []float64
		want  float64
	}{
		{"euclidean", bregEuclidean, []float64{1, 2}, []float64{4, 6}, 25},
		{"euclidean same", bregEuclidean, []float64{1, -2, 3}, []float64{1, -2, 3}, 0},
		// ½log(½/¼) + ½log(½/¾) = ½log(4/3)
		{"kl", bregKL, []float64{1, 1}, []float64{1, 3}, 0.5 * math.Log(4.0/3)},
		// Rows are histograms: scaling either leaves KL unchanged.
		{"kl scaled", bregKL, []float64{7, 7}, []float64{0.25, 0.75}, 0.5 * math.Log(4.0/3)},
		// 0·log 0 = 0: only the first bin counts, 1·log(1/½).
		{"kl zero in x", bregKL, []float64{3, 0}, []float64{1, 1}, math.Ln2},
		{"kl same", bregKL, []float64{0.2, 0, 0.8}, []float64{1, 0, 4}, 0},
		// 1·log(1/2) − 1 + 2 + 2·log(2/1) − 2 + 1 + (0 − 0 + 3) = log 2 + 3
		{"idiv", bregIDiv, []float64{1, 2, 0}, []float64{2, 1, 3}, math.Ln2 + 3},
		{"idiv same", bregIDiv, []float64{0, 5, 0.5}, []float64{0, 5, 0.5}, 0},
		// Σμ − Σx when x = 0: the divergence of an empty row is the centre's mass.
		{"idiv zero row", bregIDiv, []float64{0, 0}, []float64{1.5, 2}, 3.5},
	} {
		got, err := bregmanDiv(tc.kind, tc.x, tc.mu)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > 1e-14 {
			t.Errorf("%s: d(%v, %v) = %.17g, want %.17g", tc.name, tc.x, tc.mu, got, tc.want)
		}
	}
}

// A centre with an empty bin where the row has mass is infinitely far in exact KL; the
// floor keeps it finite but large.
func TestBregmanDivergenceFloor(t *testing.T) {
	for _, kind := range []bregman{bregKL, bregIDiv} {
		got, err := bregmanDiv(kind, []float64{0.5, 0.5}, []float64{1, 0})
		if err != nil {
			t.Fatal(err)
		}
		// 0.5·log(0.5/1e-12) + 0.5·log(0.5/1) − 0.5 + 0 + ... ≈ 13.1
		if math.IsNaN(got) || math.IsInf(got, 0) || got < 10 {
			t.Errorf("%v: divergence to a centre with an empty bin = %v, want large and finite", kind, got)
		}
	}
}

func TestBregmanBadData(t *testing.T) {
	for _, tc := range []struct {
		kind bregman
		X    *mat.Dense
		want string
	}{
		{bregKL, mat.NewDense(2, 2, []float64{1, 2, -1, 3}), "non-negative data: X has -1 at row 1, column 0"},
		{bregIDiv, mat.NewDense(1, 2, []float64{1, -0.5}), "non-negative"},
		{bregKL, mat.NewDense(2, 2, []float64{1, 2, 0, 0}), "row 1 sums to 0"},
		{bregKL, mat.NewDense(1, 2, []float64{1, math.NaN()}), "NaN"},
	} {
		_, err := newBregData(tc.X, tc.kind)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want it to mention %q", tc.kind, err, tc.want)
		}
	}
	// I-divergence takes an all-zero row.
	if _, err := newBregData(mat.NewDense(2, 2, []float64{0, 0, 1, 2}), bregIDiv); err != nil {
		t.Errorf("idiv with a zero row: %v", err)
	}
	if _, err := parseDivergence("cosine"); err == nil || !strings.Contains(err.Error(), "euclidean, kl, idiv") {
		t.Errorf("unknown divergence: err = %v", err)
	}
}

// bregmanDiv returns the divergence d_φ(x, μ) of two raw vectors, normalising both for
// KL. It goes through the same preparation as DPMeans, so it checks that path too.
func bregmanDiv(kind bregman, x, mu []float64) (float64, error) {
	if len(x) != len(mu) {
		return 0, errors.New("bregmanDiv: vectors differ in length")
	}
	X := mat.NewDense(2, len(x), append(append([]float64(nil), x...), mu...))
	b, err := newBregData(X, kind)
	if err != nil {
		return 0, err
	}
	y0, l0 := b.row(0)
	y1, _ := b.row(1)
	l1 := make([]float64, len(y1))
	floorLogs(l1, y1)
	return b.div(y0, l0, y1, l1, math.Inf(1)), nil
}
