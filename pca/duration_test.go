package pca

import (
	"testing"
	"time"

	"featurelab/internal/accuracy"
)

// TestDurationPredictsAFit: the predicted time of a fit, from the speed of a smaller
// one on the same path, is within a factor of four of the time it takes: the accuracy
// a progress line's "time left" needs, and far from the factor of 150 the stage-by-stage
// estimate was off by.
func TestDurationPredictsAFit(t *testing.T) {
	accuracy.Check(t)
	if testing.Short() {
		t.Skip("times fits of a few hundred milliseconds")
	}
	for _, tc := range []struct {
		name       string
		small, big [3]int // n, p, components
	}{
		{"randomized", [3]int{600, 4000, 50}, [3]int{1500, 8000, 50}},
		{"gram", [3]int{100, 15000, 50}, [3]int{200, 30000, 50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fitOf := func(s [3]int) time.Duration {
				y := smoothRows(s[0], s[1])
				start := time.Now()
				if _, _, err := Fit32(y, s[0], s[1], Options{Components: s[2], Seed: 1}); err != nil {
					t.Fatal(err)
				}
				return time.Since(start)
			}
			fitOf(tc.small) // teaches the rate
			predicted := Duration(tc.big[0], tc.big[1], tc.big[2], 0)
			took := fitOf(tc.big)
			t.Logf("predicted %v, took %v", predicted, took)
			if r := predicted.Seconds() / took.Seconds(); r < 1.0/4 || r > 4 {
				t.Errorf("predicted %v, took %v", predicted, took)
			}
		})
	}
}

// TestDurationCalibrates: a path no fit has timed is measured on the spot, and the
// identity mode costs nothing.
func TestDurationCalibrates(t *testing.T) {
	rates.Lock()
	rates.perSecond = nil
	rates.Unlock()
	if d := Duration(5000, 20000, 100, 0); d <= 0 {
		t.Errorf("randomized fit of 5000 × 20000 predicted to take %v", d)
	}
	// The path is timed once: the next estimate reads the rate the first one measured,
	// whether or not its fit took learnRate's 20 ms.
	rates.Lock()
	_, kept := rates.perSecond[pathRandomized]
	rates.Unlock()
	if !kept {
		t.Error("the calibration's rate was not kept: every estimate would time the path again")
	}
	if d := Duration(5000, 20000, 0, 0); d != 0 {
		t.Errorf("identity mode predicted to take %v", d)
	}
}

// smoothRows is an n × p float32 matrix of smooth rows with a decaying spectrum.
func smoothRows(n, p int) []float32 {
	y := make([]float32, n*p)
	for i := range n {
		for j := range p {
			y[i*p+j] = float32(float64((i*7+j*3)%101)/101 + float64(i%5)*float64(j%11)/50)
		}
	}
	return y
}
