//go:build !(cgo && amd64 && linux) || purego

package pca

import "gonum.org/v1/gonum/floats"

// taps sets dst[j] = Σ_t k[t]·base[off[t]+j] for j < len(dst), summed from zero in tap
// order, one floats.AddScaled a tap.
func taps(dst, base []float64, off []int, k []float64) {
	clear(dst)
	for t, kv := range k {
		floats.AddScaled(dst, kv, base[off[t]:off[t]+len(dst)])
	}
}
