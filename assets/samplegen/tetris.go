package samplegen

import "fmt"

// The 6×6 'tetris' blocks of the IBP literature (Griffiths & Ghahramani's synthetic
// images): each image is x = Σ_j c_j f_j + ε, c_j ~ Bernoulli(½), ε ~ N(0, 0.1²) per pixel,
// where every feature f_j is one block shape with value 1 on its cells and 0 elsewhere.
// The five shapes do not overlap, so a pixel's mean value says which block it belongs to.
// Images are PFM float maps, so the noise — negative values included — survives exactly.
const (
	tetrisN     = 100
	tetrisSize  = 6
	tetrisNoise = 0.1
	tetrisSeed  = 3
)

var tetrisFeatures = []string{"T_block", "O_block", "Z_block", "L_block", "I_block"}

// tetrisCells lists each shape's cells (row, column), in feature order. The layout:
//
//	T T T . O O
//	. T . . O O
//	L . Z Z . .
//	L . . Z Z .
//	L L . . . .
//	. . I I I I
var tetrisCells = [][][2]int{
	{{0, 0}, {0, 1}, {0, 2}, {1, 1}},
	{{0, 4}, {0, 5}, {1, 4}, {1, 5}},
	{{2, 2}, {2, 3}, {3, 3}, {3, 4}},
	{{2, 0}, {3, 0}, {4, 0}, {4, 1}},
	{{5, 2}, {5, 3}, {5, 4}, {5, 5}},
}

// Tetris renders 100 grey 6×6 PFM images named tetris_001.pfm … tetris_100.pfm.
func Tetris() Set {
	rng := newRand(tetrisSeed)
	set := Set{Name: "tetris", FeatureNames: tetrisFeatures}
	for n, code := range bernoulliCodes(rng, tetrisN, len(tetrisCells)) {
		x := make([]float64, tetrisSize*tetrisSize)
		for j, on := range code {
			if on {
				for _, rc := range tetrisCells[j] {
					x[rc[0]*tetrisSize+rc[1]]++
				}
			}
		}
		pix := make([]float32, len(x))
		for i := range x {
			pix[i] = float32(x[i] + tetrisNoise*rng.NormFloat64())
		}
		data, err := EncodePFM(pix, tetrisSize, tetrisSize)
		if err != nil {
			panic("samplegen: " + err.Error()) // the size is a constant that fits
		}
		set.Images = append(set.Images, Image{
			Name: fmt.Sprintf("tetris_%03d.pfm", n+1),
			Data: data,
			Code: codeString(code),
		})
	}
	return set
}
