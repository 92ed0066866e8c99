package pca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomMatrix(n, p int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := mat.NewDense(n, p, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rng.Float64()
	}
	return m
}

func TestReferenceScalingByHand(t *testing.T) {
	// Y = [[0,0],[2,0],[4,6]]: Y/√2 has mean (√2, √2); with D = 1 the scores are the
	// projections of the centred rows on the leading direction.
	Y := mat.NewDense(3, 2, []float64{0, 0, 2, 0, 4, 6})
	m, X, err := Fit(Y, Options{Components: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.D != 2 || math.Abs(m.Scale-math.Sqrt2) > 1e-15 {
		t.Fatalf("D %d scale %v", m.D, m.Scale)
	}
	for j := 0; j < 2; j++ {
		if math.Abs(m.Mean[j]-[]float64{2, 2}[j]/math.Sqrt2) > 1e-12 {
			t.Fatalf("mean %v", m.Mean)
		}
	}
	// Sum of squared scores = total of per-column sample variances: var(0,2,4)=4, var(0,0,6)=12.
	var ss float64
	for _, v := range X.RawMatrix().Data {
		ss += v * v
	}
	if math.Abs(ss-16) > 1e-9 || math.Abs(m.TotalVariance-16) > 1e-9 {
		t.Fatalf("sum of squared scores %v, total variance %v, want 16", ss, m.TotalVariance)
	}
}

func TestPathsAgreeWithDirectSVD(t *testing.T) {
	tests := []struct {
		name string
		n, p int
	}{
		{"wide", 20, 60},
		{"tall", 60, 12},
	}
	for _, tt := range tests {
		// Low rank plus a little noise, like images: the randomized path is exact enough
		// on such spectra (on a flat spectrum it is only approximate by design).
		var Y mat.Dense
		Y.Mul(randomMatrix(tt.n, 10, 7), randomMatrix(10, tt.p, 8))
		Y.Add(&Y, scaled(randomMatrix(tt.n, tt.p, 9), 1e-3))
		d := min(tt.n-1, tt.p, 8)
		var direct mat.SVD
		yc := mat.DenseCopyOf(&Y)
		yc.Scale(1/math.Sqrt(float64(tt.n-1)), yc)
		for j := 0; j < tt.p; j++ {
			var s float64
			for i := 0; i < tt.n; i++ {
				s += yc.At(i, j)
			}
			for i := 0; i < tt.n; i++ {
				yc.Set(i, j, yc.At(i, j)-s/float64(tt.n))
			}
		}
		direct.Factorize(yc, mat.SVDThin)
		sv := direct.Values(nil)
		var ref *mat.Dense
		for _, path := range []int{pathGram, pathSVD, pathRandom} {
			m, X, err := Fit(&Y, Options{Components: d, path: path, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < d; k++ {
				if math.Abs(m.Variance[k]-sv[k]*sv[k]) > 1e-6*sv[0]*sv[0] {
					t.Fatalf("%s path %d: variance %d = %v, want %v", tt.name, path, k, m.Variance[k], sv[k]*sv[k])
				}
			}
			var vtv mat.Dense
			vtv.Mul(m.Components, m.Components.T())
			if !mat.EqualApprox(&vtv, eye(d), 1e-8) {
				t.Fatalf("%s path %d: components not orthonormal", tt.name, path)
			}
			if ref == nil {
				ref = X
			} else if !mat.EqualApprox(X, ref, 1e-6) {
				t.Fatalf("%s path %d: scores differ from the Gram path (signs must be fixed)", tt.name, path)
			}
		}
	}
}

func scaled(m *mat.Dense, f float64) *mat.Dense { m.Scale(f, m); return m }

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

func TestInverseOfForwardReproducesTheData(t *testing.T) {
	Y := randomMatrix(15, 40, 2)
	m, X, err := Fit(Y, Options{Components: 100}) // capped at N−1 = 14: exact reconstruction
	if err != nil {
		t.Fatal(err)
	}
	if m.D != 14 {
		t.Fatalf("D = %d, want 14", m.D)
	}
	for i := 0; i < 15; i++ {
		back := m.Inverse(X.RawRowView(i), nil)
		for j, v := range back {
			if math.Abs(v-Y.At(i, j)) > 1e-9 {
				t.Fatalf("row %d pixel %d: %v, want %v", i, j, v, Y.At(i, j))
			}
		}
		s := m.Transform(Y.RawRowView(i), nil)
		for k, v := range s {
			if math.Abs(v-X.At(i, k)) > 1e-9 {
				t.Fatalf("Transform disagrees with the scores")
			}
		}
	}
}

func TestNoPCAAndErrors(t *testing.T) {
	Y := randomMatrix(4, 5, 1)
	m, X, err := Fit(Y, Options{Components: 0})
	if err != nil || !m.Identity || !mat.Equal(X, Y) {
		t.Fatalf("pca 0 must keep the pixels: %v", err)
	}
	if got := m.Inverse(X.RawRowView(1), nil); got[2] != Y.At(1, 2) {
		t.Fatal("identity inverse changed the data")
	}
	if _, _, err := Fit(mat.NewDense(1, 3, nil), Options{Components: 2}); err == nil {
		t.Fatal("one image must be an error")
	}
	if _, _, err := Fit(Y, Options{Components: -1}); err == nil {
		t.Fatal("negative components must be an error")
	}
	Y.Set(0, 0, math.NaN())
	if _, _, err := Fit(Y, Options{Components: 2}); err == nil {
		t.Fatal("NaN must be an error")
	}
}

func BenchmarkFit100x230400(b *testing.B) {
	Y := randomMatrix(100, 230400, 5)
	for b.Loop() {
		if _, _, err := Fit(Y, Options{Components: 100}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFitRandomized5000x2000(b *testing.B) {
	Y := randomMatrix(5000, 2000, 5)
	for b.Loop() {
		if _, _, err := Fit(Y, Options{Components: 50, path: pathRandom}); err != nil {
			b.Fatal(err)
		}
	}
}
