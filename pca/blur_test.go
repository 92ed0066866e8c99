package pca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/imgproc"
)

// TestBlurMetricIsTheBlurredDistance: ‖sR‖ is the length of the picture of s (without
// the mean) blurred, whether the component pictures are blurred whole or a band of rows
// at a time.
func TestBlurMetricIsTheBlurredDistance(t *testing.T) {
	const w, h, c, n = 13, 11, 3, 30
	rng := rand.New(rand.NewPCG(1, 2))
	Y := mat.NewDense(n, w*h*c, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < w*h*c; j++ {
			Y.Set(i, j, rng.Float64())
		}
	}
	m, _, err := Fit(Y, Options{Components: 12, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func(v int) { bandValues = v }(bandValues)
	for _, band := range []int{1 << 22, m.D * w * c, 3 * m.D * w * c} { // whole, a row, three rows
		bandValues = band
		R, err := m.BlurMetric(w, h, c, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 5; trial++ {
			s := make([]float64, m.D)
			for d := range s {
				s[d] = rng.NormFloat64()
			}
			var sr mat.VecDense
			sr.MulVec(R.T(), mat.NewVecDense(m.D, s))
			pic := make([]float64, m.P)
			for p := range pic {
				pic[p] = floats.Dot(m.Components.RawRowView(p), s)
			}
			want := floats.Norm(imgproc.SmoothPictures(pic, w, h, c, 1, 1, 1), 2)
			if got := mat.Norm(&sr, 2); math.Abs(got-want) > 1e-10*want {
				t.Fatalf("band of %d values: ‖sR‖ = %v, the blurred picture's length %v", band, got, want)
			}
		}
	}
}

// BenchmarkBlurMetricTabletop: the blur metric of 100 components of 320 × 240 colour
// pictures, the real tabletop's.
func BenchmarkBlurMetricTabletop(b *testing.B) {
	const w, h, c, d = 320, 240, 3, 100
	rng := rand.New(rand.NewPCG(1, 2))
	V := mat.NewDense(w*h*c, d, nil)
	for i := range V.RawMatrix().Data {
		V.RawMatrix().Data[i] = rng.NormFloat64()
	}
	m := &Model{P: w * h * c, D: d, Components: V, workers: 2}
	for b.Loop() {
		if _, err := m.BlurMetric(w, h, c, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTapsAddAsAddScaledDoes checks the blur's fused taps against clearing the output and
// adding each tap with floats.AddScaled, to the bit: lengths that do and do not fill the
// vector lanes, taps that overlap and that repeat (a clamped edge).
func TestTapsAddAsAddScaledDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{1, 7, 8, 9, 100, 1003} {
		base := make([]float64, 4*n+20)
		for i := range base {
			base[i] = rng.NormFloat64() * math.Exp(4*rng.NormFloat64())
		}
		k := []float64{0.004, 0.054, 0.242, 0.399, 0.242, 0.054, 0.004}
		off := []int{0, 3, 3, n, n + 1, 2 * n, 3*n + 17}
		want := make([]float64, n)
		for t, kv := range k {
			floats.AddScaled(want, kv, base[off[t]:off[t]+n])
		}
		got := make([]float64, n)
		for i := range got {
			got[i] = math.NaN() // what was there before counts for nothing
		}
		taps(got, base, off, k)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d, value %d: %v, AddScaled %v", n, i, got[i], want[i])
			}
		}
	}
}
