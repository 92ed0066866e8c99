package algorithms

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNames(t *testing.T) {
	want := []string{"stepwise", "kfeatures", "bpmeans", "collapsed", "ibp", "kmeans", "dpmeans"}
	got := Names()
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	got[0] = "changed"
	if Names()[0] != "stepwise" {
		t.Error("Names returns the package's own slice")
	}
	for name := range learners {
		if !slices.Contains(want, name) {
			t.Errorf("learner %q is not in Names", name)
		}
	}
}

func TestRunDispatch(t *testing.T) {
	X, _ := gaussianBlobs(2, blobCentres(3, 3, 10), 6, 0.5)
	opt := Options{K: 3, Lambda2: 20, Restarts: 3, MaxK: 4, Sweeps: 5, Seed: 1}
	ctx := context.Background()
	for _, name := range Names() {
		res, err := Run(ctx, name, X, opt)
		if _, ok := learners[name]; !ok {
			if err == nil || !strings.Contains(err.Error(), "not yet available") {
				t.Errorf("%s: err = %v, want “not yet available”", name, err)
			}
			continue
		}
		// Other learners' own tests judge their answers; here only the routing counts.
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "unknown algorithm") || strings.Contains(msg, "not yet available") {
				t.Errorf("%s: not routed: %v", name, err)
			}
			continue
		}
		if res.Algorithm != name {
			t.Errorf("Run(%q) ran %q", name, res.Algorithm)
		}
	}
	// Run is the learner: same options, same answer.
	for name, fn := range map[string]learner{"kmeans": KMeans, "dpmeans": DPMeans} {
		a, err := Run(ctx, name, X, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fn(ctx, X, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.Z, b.Z) || a.BPObjective != b.BPObjective {
			t.Errorf("Run(%q) differs from calling the learner", name)
		}
	}
}

func TestRunUnknown(t *testing.T) {
	_, err := Run(context.Background(), "kmedoids", mat.NewDense(2, 1, []float64{0, 1}), Options{})
	if err == nil {
		t.Fatal("no error for an unknown algorithm")
	}
	for _, want := range append([]string{`"kmedoids"`}, Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

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
