package selection

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/pca"
)

// scene is n grey pictures of w × h: a mid-grey table with a bright square on the
// images where on[i], and faint noise, with its PCA.
func scene(t *testing.T, w, h int, on []bool) (*pca.Model, *mat.Dense) {
	t.Helper()
	n := len(on)
	Y := mat.NewDense(n, w*h, nil)
	state := uint32(7)
	for i := range n {
		row := Y.RawRowView(i)
		for p := range row {
			state = state*1664525 + 1013904223
			row[p] = 0.5 + 0.01*(float64(state>>8)/float64(1<<24)-0.5)
			x, y := p%w, p/w
			if on[i] && x >= w/4 && x < w/2 && y >= h/4 && y < h/2 {
				row[p] += 0.4
			}
		}
	}
	model, scores, err := pca.Fit(Y, pca.Options{Components: n - 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return model, scores
}

// TestReadableFormAddsTheObject: a fit whose base holds the square and whose feature
// takes it away (owned by the images without it) reads the other way round: the base is
// the empty table, owned by every image, and the feature adds the square, owned by the
// images that show it. The fit is the same.
func TestReadableFormAddsTheObject(t *testing.T) {
	const w, h = 16, 12
	on := []bool{true, false, true, true, false, false, true, false, true, false}
	model, scores := scene(t, w, h, on)
	n := len(on)
	// As found: column 0 the table with the square, column 1 "no square".
	Z := mat.NewDense(n, 2, nil)
	for i := range n {
		Z.Set(i, 0, 1)
		if !on[i] {
			Z.Set(i, 1, 1)
		}
	}
	A := leastSquares(t, Z, scores)
	o := New(scores, model, w, h, 1, 1)
	form := o.ReadableForm(Z, A, false)
	if form == nil || !form.WithBase {
		t.Fatalf("no readable form with a base: %+v", form)
	}
	for i := range n {
		if form.Z.At(i, 0) != 1 {
			t.Fatalf("image %d does not own the base", i)
		}
		if got, want := form.Z.At(i, 1) == 1, on[i]; got != want {
			t.Errorf("image %d owns the feature: %v, want %v (it shows the square: %v)", i, got, want, on[i])
		}
	}
	// The feature's picture is brighter inside the square than the table around it.
	pix := model.InverseDense(form.A)
	mean := model.MeanPixels()
	feature := pix.RawRowView(1)
	inside, outside := feature[(h/3)*w+w/3]-mean[(h/3)*w+w/3], feature[(h-1)*w+w-1]-mean[(h-1)*w+w-1]
	if inside < 0.3 || outside > 0.05 || outside < -0.05 {
		t.Errorf("the feature adds %.3f inside the square and %.3f outside, want about 0.4 and 0", inside, outside)
	}
	// Same fit: Z·A is unchanged.
	var before, after mat.Dense
	before.Mul(Z, A)
	after.Mul(form.Z, form.A)
	if !mat.EqualApprox(&before, &after, 1e-9) {
		t.Error("the readable form changed the fit")
	}
}

// TestNoPicturesNoOrientation: scores with no pictures behind them are left as found.
func TestNoPicturesNoOrientation(t *testing.T) {
	scores := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, 0, 0})
	Z := mat.NewDense(4, 2, []float64{1, 1, 1, 0, 1, 1, 1, 0})
	o := New(scores, nil, 0, 0, 0, 1)
	A := leastSquares(t, Z, scores)
	form := o.ReadableForm(Z, A, false)
	if form == nil {
		t.Fatal("no form")
	}
	if !mat.Equal(form.Z, Z) {
		t.Errorf("Z changed with no pictures to read: %v", mat.Formatted(form.Z))
	}
}

func leastSquares(t *testing.T, Z, X *mat.Dense) *mat.Dense {
	t.Helper()
	var A mat.Dense
	if err := A.Solve(Z, X); err != nil {
		t.Fatal(err)
	}
	return &A
}
