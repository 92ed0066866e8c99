package learn

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCodes(t *testing.T) {
	Z := mat.NewDense(3, 5, []float64{
		1, 0, 1, 1, 0,
		0, 0, 0, 0, 0,
		1, 1, 1, 1, 1,
	})
	if got, want := Codes(Z), []string{"10110", "00000", "11111"}; !slices.Equal(got, want) {
		t.Errorf("Codes = %v, want %v", got, want)
	}
	if Codes(nil) != nil || Codes(&mat.Dense{}) != nil {
		t.Error("Codes of no matrix is not nil")
	}
	// A strided view reads its own columns only.
	if got := Codes(Z.Slice(0, 3, 1, 3).(*mat.Dense)); !slices.Equal(got, []string{"01", "00", "11"}) {
		t.Errorf("Codes of a view = %v", got)
	}
}
