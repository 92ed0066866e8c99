package learn

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCheck(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	nan := mat.NewDense(2, 2, []float64{1, 2, math.NaN(), 4})
	inf := mat.NewDense(2, 2, []float64{math.Inf(-1), 2, 3, 4})
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  Options
		want string // "" for no error
	}{
		{"nil X", nil, Options{}, "X is empty: need at least one row and one column"},
		{"empty X", &mat.Dense{}, Options{}, "X is empty"},
		{"NaN", nan, Options{}, "X has NaN at row 1, column 0"},
		{"Inf", inf, Options{}, "X has -Inf at row 0, column 0"},
		{"restarts", good, Options{Restarts: -1}, "restarts must be ≥ 0, got -1"},
		{"maxiter", good, Options{MaxIter: -3}, "maxiter must be ≥ 0, got -3"},
		{"workers", good, Options{Workers: -2}, "workers must be ≥ 0, got -2"},
		{"negative lambda2", good, Options{Lambda2: -1}, "lambda2 must be a finite number ≥ 0, got -1"},
		{"NaN lambda2", good, Options{Lambda2: math.NaN()}, "got NaN"},
		{"infinite lambda2", good, Options{Lambda2: math.Inf(1)}, "got +Inf"},
		{"lambda2 that overflows λ²K", good, Options{Lambda2: math.MaxFloat64}, "lambda2 must be at most"},
		{"too large", mat.NewDense(2, 2, []float64{1e154, 0, 0, 1}), Options{}, "X is too large for float64: the sum of its squares is 1e+308"},
		{"large but fine", mat.NewDense(2, 2, []float64{1e150, 0, 0, 1}), Options{}, ""},
		{"defaults", good, Options{}, ""},
	} {
		cfg, err := Check(tc.X, tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
		if tc.want == "" && (cfg.Restarts != 100 || cfg.MaxIter != 1000) {
			t.Errorf("%s: defaults %+v, want 100 restarts of 1000 iterations", tc.name, cfg)
		}
	}
	cfg, err := Check(good, Options{Restarts: 7, MaxIter: 9, Workers: 3, Seed: 11})
	if err != nil || cfg != (Config{Restarts: 7, MaxIter: 9, Workers: 3, Seed: 11}) {
		t.Errorf("Check kept %+v, %v", cfg, err)
	}
}

func TestPositiveLambda2(t *testing.T) {
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if err := PositiveLambda2("bpmeans", v); err == nil || !strings.Contains(err.Error(), "lambda2 must be > 0 for bpmeans") {
			t.Errorf("λ² = %v: err = %v", v, err)
		}
	}
	if err := PositiveLambda2("bpmeans", 1e-9); err != nil {
		t.Error(err)
	}
}

func TestFlatRows(t *testing.T) {
	X := mat.NewDense(3, 4, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	if got := FlatRows(X); &got[0] != &X.RawMatrix().Data[0] || len(got) != 12 {
		t.Error("a matrix without gaps is copied")
	}
	view := X.Slice(1, 3, 1, 3).(*mat.Dense)
	got := FlatRows(view)
	want := []float64{5, 6, 9, 10}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("FlatRows of a view = %v, want %v", got, want)
		}
	}
}
