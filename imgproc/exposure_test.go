package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExposureGains: pictures of one scene taken at gains within ±5 %, each with an
// object that covers a fifth of it (brighter or darker), have their gains measured within
// 0.5 %, up to the common scale (a geometric mean of 1).
func TestExposureGains(t *testing.T) {
	const n, p = 60, 3000
	rng := rand.New(rand.NewPCG(1, 2))
	scene := make([]float32, p)
	for j := range scene {
		scene[j] = float32(0.1 + 0.8*rng.Float64())
	}
	d := &Dataset{Width: p, Height: 1, Channels: 1, Names: make([]string, n), Pixels: make([]float32, n*p)}
	truth := make([]float64, n)
	logSum := 0.0
	for i := 0; i < n; i++ {
		truth[i] = 0.95 + 0.1*rng.Float64()
		logSum += math.Log(truth[i])
		start := rng.IntN(p - p/5)
		for j := 0; j < p; j++ {
			v := float64(scene[j])
			if j >= start && j < start+p/5 {
				v = []float64{0.02, 0.98}[i%2] // an object, dark or bright
			}
			d.Pixels[i*p+j] = float32(v*truth[i] + 0.002*rng.NormFloat64())
		}
	}
	gm := math.Exp(logSum / n)
	got := d.ExposureGains()
	for i, g := range got {
		if want := truth[i] / gm; math.Abs(g/want-1) > 0.005 {
			t.Errorf("picture %d: gain %.4f, want %.4f", i, g, want)
		}
	}
	d.DivideExposure(got)
	if again := d.ExposureGains(); math.Abs(again[0]-1) > 0.002 {
		t.Errorf("after dividing, gain %.4f", again[0])
	}
}
