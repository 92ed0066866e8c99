package saved_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
)

// tabletopLoad is how the tests load the tabletop sample: half size and a small PCA.
var tabletopLoad = pipeline.LoadChoices{Colour: pipeline.ColourAuto, Size: "160x120", PCA: "20"}

// tabletop prepares the tabletop sample as tabletopLoad says, once per test binary, as
// loading it is most of these tests' time. The tests run analyses on it and change
// nothing of it.
var tabletop = sync.OnceValues(func() (*pipeline.Prepared, error) {
	req, err := tabletopRequest()
	if err != nil {
		return nil, err
	}
	return pipeline.Prepare(context.Background(), req, nil)
})

// tabletopRequest is the request tabletop prepared.
func tabletopRequest() (pipeline.Request, error) {
	return tabletopLoad.Request(pipeline.Source{Sample: "tabletop"})
}

// TestSaveAndRestoreBuiltInSample saves analyses of the tabletop sample, opens them, and
// puts each result back on the data prepared again from the file's request, as the
// window does: the request is the one the analysis ran with, and the restored analysis
// shows the same summary, codes and feature grid without running the algorithm.
func TestSaveAndRestoreBuiltInSample(t *testing.T) {
	ctx := context.Background()
	req, err := tabletopRequest()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tabletop()
	if err != nil {
		t.Fatal(err)
	}
	var again *pipeline.Prepared // prepared from the first file's request

	tests := []struct {
		name  string
		algo  string
		opt   learn.Options
		spoil func(r *learn.Result) // values JSON has no number for, which must come back
	}{
		{"kfeatures", "kfeatures", learn.Options{K: 4, Restarts: 3, Seed: 5, Workers: 2}, nil},
		{"stepwise with a proposed λ²", "stepwise", learn.Options{MaxK: 5, Restarts: 2, Seed: 2}, nil},
		{"stepwise with K from the widest interval", "stepwise", learn.Options{MaxK: 5, Restarts: 2, Seed: 2, KFrom: learn.KFromWidest}, nil},
		{"kmeans", "kmeans", learn.Options{K: 3, Restarts: 2, Seed: 1}, nil},
		{"ibp", "ibp", learn.Options{Chains: 2, Sweeps: 20, Seed: 4}, nil},
		// Beside the result, NaN and ±Inf come back as they were; in it, as result.json
		// writes them (−1 through Finite, −0 left out as zero).
		{"ibp with NaN, ±Inf and −0", "ibp", learn.Options{Chains: 2, Sweeps: 10, Seed: 6}, func(r *learn.Result) {
			r.MAPLogJoint = math.Inf(-1)
			r.RestartObjectives[0] = math.Inf(1)
			r.PosteriorObjective = math.NaN()
			r.Trace.LogJoint[0] = math.Inf(-1)
			r.Trace.AcceptA = math.NaN()
			r.Alpha = math.Copysign(0, -1)
		}},
		// A restart that never finished, and no restart that did.
		{"kfeatures with infinite objectives", "kfeatures", learn.Options{K: 3, Restarts: 3, Seed: 5}, func(r *learn.Result) {
			r.RestartObjectives[1] = math.Inf(1)
			r.Objective, r.BPObjective = math.Inf(1), math.NaN()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := result.Run(ctx, p, algorithms.MustLookup(tc.algo), tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.spoil != nil {
				tc.spoil(a.Result)
			}
			path := filepath.Join(t.TempDir(), "tabletop"+saved.Ext)
			if err := saved.Save(a, path, tabletopLoad); err != nil {
				t.Fatal(err)
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
				t.Fatalf("saved file: %v, %v; want mode 0644", info, err)
			}
			s, err := saved.Open(path)
			if err != nil {
				t.Fatal(err)
			}

			got, err := s.Request()
			if err != nil {
				t.Fatal(err)
			}
			want := req
			want.Algorithm, want.Options = algorithms.MustLookup(tc.algo), a.Options
			want.Options.Workers, want.Options.Progress = 0, nil
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("request\n%+v\nwant\n%+v", got, want)
			}
			if tc.algo == "kfeatures" {
				// Nothing of the user's options changes but what only this machine uses.
				user := tc.opt
				user.Workers = 0
				if !reflect.DeepEqual(got.Options, user) {
					t.Fatalf("options %+v, want the user's %+v", got.Options, user)
				}
			}

			if again == nil {
				if again, err = pipeline.Prepare(ctx, got, nil); err != nil {
					t.Fatal(err)
				}
			}
			b, err := s.Restore(again)
			if err != nil {
				t.Fatal(err)
			}
			if b.Prepared != again || b.Algorithm != a.Algorithm {
				t.Fatalf("restored %s on %p, want %s on %p", b.Algorithm.Name, b.Prepared, a.Algorithm.Name, again)
			}
			if g, w := saved.ResultText(b.Result), saved.ResultText(asResultJSONSays(a.Result)); g != w {
				t.Fatalf("result differs:\n%s", saved.FirstDifference(g, w))
			}
			// A fit on the pictures seen through a blur reads its separations there; the
			// reopened analysis has no such scores and keeps what the run read.
			if g, w := b.Separation(), a.Separation(); !slices.EqualFunc(g, w, func(x, y float64) bool { return x == y || x != x && y != y }) {
				t.Fatalf("separation %v, want the run's %v (fitted on blurred scores: %v)", g, w, a.Seen != nil)
			}
			if g, w := saved.SummaryOf(b), saved.SummaryOf(a); !reflect.DeepEqual(g, w) {
				t.Fatalf("summary\n%+v\nwant\n%+v", g, w)
			}
			// The reopened analysis writes the result.json the run wrote, byte for byte.
			var reopened, ran bytes.Buffer
			if err := saved.WriteJSON(&reopened, saved.FullResultOf(b)); err != nil {
				t.Fatal(err)
			}
			if err := saved.WriteJSON(&ran, saved.FullResultOf(a)); err != nil {
				t.Fatal(err)
			}
			if g, w := reopened.String(), ran.String(); g != w {
				t.Fatalf("result.json differs:\n%s", saved.FirstDifference(g, w))
			}
			// What shows it works on values that read −1 for a NaN or an infinity.
			_ = saved.ObjectiveText(b)
			for _, name := range report.PlotNames(b.Prepared, b) {
				if report.NamedPlot(name, b.Prepared, b) == nil {
					t.Errorf("no %s plot", name)
				}
			}
			if !slices.Equal(b.Codes(), a.Codes()) {
				t.Fatal("codes differ")
			}
			says := *a // the run, its result as result.json says it
			says.Result = asResultJSONSays(a.Result)
			if g, w := report.FeatureGrid(b), report.FeatureGrid(&says); g.Bounds() != w.Bounds() || !bytes.Equal(g.Pix, w.Pix) {
				t.Fatalf("feature grid differs (%v, want %v)", g.Bounds(), w.Bounds())
			}
			// Each restore has its own matrices: a view that rewrites one changes no other.
			if b.Result.Z == s.Result.Z || b.Result.A == s.Result.A {
				t.Fatal("the restored analysis shares its matrices with the Saved")
			}
		})
	}
}

// asResultJSONSays is r as it reads back from result.json, which a saved analysis holds:
// the values written through Finite as −1, a −0 as 0 (left out as zero), and without the
// learner's seconds, which result.json gives in its timings instead.
func asResultJSONSays(r *learn.Result) *learn.Result {
	c := *r
	c.Objective, c.BPObjective, c.PosteriorObjective = saved.Finite(r.Objective), saved.Finite(r.BPObjective), saved.Finite(r.PosteriorObjective)
	c.RestartObjectives = nil
	for _, v := range r.RestartObjectives {
		c.RestartObjectives = append(c.RestartObjectives, saved.Finite(v))
	}
	c.Curve = nil
	for _, p := range r.Curve {
		c.Curve = append(c.Curve, learn.CurvePoint{K: p.K, Objective: saved.Finite(p.Objective), BPObjective: saved.Finite(p.BPObjective)})
	}
	c.Alpha, c.SigmaX, c.SigmaA = r.Alpha+0, r.SigmaX+0, r.SigmaA+0
	c.Seconds = 0
	if r.ZProbability != nil {
		// result.json keeps the posterior shares to 3 decimals.
		c.ZProbability = mat.DenseCopyOf(r.ZProbability)
		c.ZProbability.Apply(func(_, _ int, v float64) float64 { return math.Round(v*1000) / 1000 }, c.ZProbability)
	}
	return &c
}

// TestRestoreNeedsTheSameExposure: an analysis of pictures whose exposure was divided
// out does not restore onto the same pictures kept as taken (its residuals and
// reconstructions would be another data set's), and its request loads them as it did.
func TestRestoreNeedsTheSameExposure(t *testing.T) {
	ctx := context.Background()
	// The cards at a quarter of their width and height: the exposure is still divided out.
	load := pipeline.LoadChoices{Size: "30x42", PCA: "20"}
	req, err := load.Request(pipeline.Source{Sample: "cards"})
	if err != nil {
		t.Fatal(err)
	}
	req.Algorithm, req.Options = algorithms.MustLookup("kmeans"), learn.Options{K: 4, Restarts: 2, Seed: 1}
	a, err := result.Analyze(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Exposure.Divided {
		t.Fatal("the cards' exposure was kept: nothing to check")
	}
	path := filepath.Join(t.TempDir(), "cards.featurelab")
	if err := saved.Save(a, path, load); err != nil {
		t.Fatal(err)
	}
	s, err := saved.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.Request(); err != nil || again.Exposure != pipeline.ExposureAuto {
		t.Fatalf("request exposure %q (%v), want %q", again.Exposure, err, pipeline.ExposureAuto)
	}
	none := req
	none.Exposure = pipeline.ExposureNone
	p, err := pipeline.Prepare(ctx, none, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(p); !errors.Is(err, saved.ErrFolderChanged) || !strings.Contains(err.Error(), "exposure none now, auto when saved") {
		t.Errorf("restored onto pictures kept as taken: %v", err)
	}
}
