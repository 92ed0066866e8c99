package samplegen

import (
	"math"
	"testing"
)

// TestTetrisNoise checks x = Σ c_j f_j + N(0, 0.1²): the residual after subtracting the
// blocks the code names has mean ≈ 0 and sd ≈ 0.1, and negative values survive.
func TestTetrisNoise(t *testing.T) {
	var sum, sum2 float64
	var n, negative int
	for _, im := range set(t, "tetris").Images {
		d := decode(t, im)
		mean := make([]float64, tetrisSize*tetrisSize)
		for j, cells := range tetrisCells {
			if im.Code[j] == '1' {
				for _, rc := range cells {
					mean[rc[0]*tetrisSize+rc[1]] = 1
				}
			}
		}
		for i, v := range d.v {
			r := v - mean[i]
			sum += r
			sum2 += r * r
			n++
			if v < 0 {
				negative++
			}
		}
	}
	m := sum / float64(n)
	sd := math.Sqrt(sum2/float64(n) - m*m)
	if math.Abs(m) > 0.01 || math.Abs(sd-tetrisNoise) > 0.01 {
		t.Errorf("noise mean %.4f sd %.4f, want 0 and %g", m, sd, tetrisNoise)
	}
	if negative == 0 {
		t.Error("no negative samples: the noise did not survive")
	}
}

// TestTetrisShapesDisjoint checks the five blocks are tetrominoes that do not overlap.
func TestTetrisShapesDisjoint(t *testing.T) {
	used := map[[2]int]string{}
	for j, cells := range tetrisCells {
		if len(cells) != 4 {
			t.Errorf("%s has %d cells", tetrisFeatures[j], len(cells))
		}
		for _, rc := range cells {
			if other, ok := used[rc]; ok {
				t.Errorf("%s and %s share cell %v", other, tetrisFeatures[j], rc)
			}
			used[rc] = tetrisFeatures[j]
		}
	}
}
