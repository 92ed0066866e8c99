package pca_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"featurelab/pca"
)

// Three two-pixel "images": after the reference scaling the data vary three times as
// much along the second pixel as along the first.
func ExampleFit() {
	Y := mat.NewDense(3, 2, []float64{
		0, 0,
		2, 0,
		1, 3,
	})
	m, X, err := pca.Fit(Y, pca.Options{Components: pca.DefaultComponents})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("D = %d (capped at N−1), method %s\n", m.D, m.Method)
	fmt.Printf("variance %.3f of %.3f, explained %.2f\n", m.Variance, m.TotalVariance, m.ExplainedRatio())
	fmt.Printf("image 3 rebuilt: %.4f\n", m.Inverse(X.RawRowView(2), nil))
	// Round for printing, so that a rounding-level −0 shows as 0 on every platform.
	X.Apply(func(_, _ int, v float64) float64 { return math.Round(v*1e4)/1e4 + 0 }, X)
	fmt.Printf("scores\n%.4f\n", mat.Formatted(X))
	// Output:
	// D = 2 (capped at N−1), method svd
	// variance [3.000 1.000] of 4.000, explained [0.75 0.25]
	// image 3 rebuilt: [1.0000 3.0000]
	// scores
	// ⎡-0.7071  -0.7071⎤
	// ⎢-0.7071   0.7071⎥
	// ⎣ 1.4142   0.0000⎦
}

// With Components = 0 there is no PCA, and the model's maps are the identity.
func ExampleFit_noPCA() {
	Y := mat.NewDense(2, 3, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6})
	m, X, _ := pca.Fit(Y, pca.Options{Components: 0})
	fmt.Println(m.Identity, m.D, X.RawRowView(1), m.Inverse(X.RawRowView(1), nil))
	// Output:
	// true 3 [0.4 0.5 0.6] [0.4 0.5 0.6]
}
