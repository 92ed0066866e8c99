package algorithms

import (
	"context"
	"featurelab/algorithms/cluster"
	"featurelab/algorithms/learn"
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
	X := threeBlobs()
	opt := learn.Options{K: 3, Lambda2: 20, Restarts: 3, MaxK: 4, Sweeps: 5, Seed: 1}
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
	for name, fn := range map[string]Learner{"kmeans": cluster.KMeans, "dpmeans": cluster.DPMeans} {
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
	_, err := Run(context.Background(), "kmedoids", mat.NewDense(2, 1, []float64{0, 1}), learn.Options{})
	if err == nil {
		t.Fatal("no error for an unknown algorithm")
	}
	for _, want := range append([]string{`"kmedoids"`}, Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// threeBlobs is 18 points in 3 dimensions, six around each of three far-apart centres,
// with small fixed offsets: data every learner runs on quickly.
func threeBlobs() *mat.Dense {
	X := mat.NewDense(18, 3, nil)
	for i := 0; i < 18; i++ {
		c := float64(i % 3)
		off := 0.1 * float64(i/3-2)
		X.SetRow(i, []float64{10*c + off, -off, 5*c*c + off})
	}
	return X
}
