package pipeline_test

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/assets"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
)

// TestAnalyzeBuiltInSampleWritesOutputs: an analysis of the built-in tabletop at its own
// size reports its stages from the load on, and writes its outputs. The stages are those
// of tabletopStepwise's Analyze, and K-means runs on the data it prepared. The tests on
// tabletopStepwise are whole default runs on the sample at its size, so they run in the
// pass without the race detector (accuracy.Check), where loading it is not most of
// their time.
func TestAnalyzeBuiltInSampleWritesOutputs(t *testing.T) {
	accuracy.Check(t)
	stepwise, err := tabletopStepwise()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Join(tabletopStages, "|"), "Loading images") {
		t.Fatalf("first stage reported: %v", tabletopStages)
	}
	a, err := result.Run(context.Background(), stepwise.Prepared, algorithms.MustLookup("kmeans"), learn.Options{K: 4, Restarts: 5, Seed: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := saved.SummaryOf(a)
	if s.NImages < 60 || s.Width != 320 || s.Height != 240 || s.Channels != 3 {
		t.Fatalf("summary %d images %d×%d×%d, want ≥ 60 of 320×240×3", s.NImages, s.Width, s.Height, s.Channels)
	}
	if s.K != 4 || len(s.Codes) != s.NImages || len(s.Skipped) != 0 {
		t.Fatalf("k %d, %d codes, skipped %v", s.K, len(s.Codes), s.Skipped)
	}
	if s.PCADims != min(pipeline.DefaultPCA, s.NImages-1) {
		t.Fatalf("pca dims %d", s.PCADims)
	}

	dir := t.TempDir()
	if err := report.WriteOutputs(a, dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, report.FeaturesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	grid, err := png.Decode(f)
	if err != nil {
		t.Fatalf("features.png: %v", err)
	}
	if grid.Bounds().Dx() < 4*128 {
		t.Fatalf("feature grid only %v wide for 4 clusters", grid.Bounds())
	}
	csv, _ := os.ReadFile(filepath.Join(dir, report.CodesFile))
	if lines := strings.Count(string(csv), "\n"); lines != s.NImages+1 {
		t.Fatalf("codes.csv has %d lines, want %d", lines, s.NImages+1)
	}
	if _, err := os.Stat(filepath.Join(dir, report.ResultFile)); err != nil {
		t.Fatal(err)
	}
}

func TestAnalyzeRejectsBadRequests(t *testing.T) {
	tests := []struct {
		name string
		req  pipeline.Request
		want string
	}{
		{"no algorithm", pipeline.Request{Options: learn.Options{Restarts: 1}}, "no algorithm: one of stepwise"},
		{"negative pca", pipeline.Request{Algorithm: algorithms.MustLookup("kmeans"), PCA: -1, Options: learn.Options{Restarts: 1}}, "pca must be"},
		{"negative restarts", pipeline.Request{Algorithm: algorithms.MustLookup("kmeans"), Options: learn.Options{Restarts: -1}}, "restarts must be"},
		{"too many restarts", pipeline.Request{Algorithm: algorithms.MustLookup("kmeans"), Options: learn.Options{Restarts: 1e9}}, "restarts must be"},
		{"NaN lambda", pipeline.Request{Algorithm: algorithms.MustLookup("bpmeans"), Options: learn.Options{Restarts: 1, Lambda2: nan()}}, "lambda2 must be"},
		{"bad divergence", pipeline.Request{Algorithm: algorithms.MustLookup("dpmeans"), Options: learn.Options{Restarts: 1, Divergence: "cosine"}}, "divergence must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := pipeline.ValidateRequest(tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func nan() float64 { var z float64; return z / z }

// TestPrepareInStagesPreviews checks the window's early look at a data set: the
// thumbnails come once (imgproc's test shows they come before the data matrix is
// filled), for the images that are then loaded, and they are the thumbnails the
// prepared data keeps.
func TestPrepareInStagesPreviews(t *testing.T) {
	var previews int
	var names []string
	var thumbs []image.Image
	p, err := pipeline.PrepareInStages(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "dice"}, PCA: 20}, nil,
		func(n []string, th []image.Image) {
			previews++
			names, thumbs = n, th
		})
	if err != nil {
		t.Fatal(err)
	}
	if previews != 1 {
		t.Fatalf("%d previews, want one", previews)
	}
	if !slices.Equal(names, p.Data.Names) {
		t.Fatalf("previewed %d names, loaded %d", len(names), len(p.Data.Names))
	}
	kept := p.Thumbnails()
	for i := range kept {
		if kept[i] != thumbs[i] {
			t.Fatalf("thumbnail %d rendered again instead of the previewed one", i)
		}
	}
}

// TestIBPWithNoFeaturesIsAClearError runs the IBP on folders of pure noise, where some
// chains end with no features at all: each run gives a result with N codes whose
// outputs can be written, or the one-line "no features" error, never a panic.
func TestIBPWithNoFeaturesIsAClearError(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 7 {
		img := image.NewGray(image.Rect(0, 0, 16, 16))
		for j := range img.Pix {
			img.Pix[j] = uint8(rng.IntN(256))
		}
		accuracy.WriteImage(t, filepath.Join(dir, fmt.Sprintf("noise%d.png", i)), img)
	}
	p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	none := 0
	for seed := uint64(1); seed <= 6; seed++ {
		a, err := result.RunOn(context.Background(), p, algorithms.MustLookup("ibp"), pipeline.Description{}, learn.Options{Seed: seed, Chains: 2, Sweeps: 100}, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "the IBP sampler ended with no features: it explains all 7 images") {
				t.Fatalf("seed %d: %v", seed, err)
			}
			none++
			continue
		}
		if n, _ := a.Result.Z.Dims(); n != 7 || a.Result.K < 1 {
			t.Fatalf("seed %d: Z has %d rows, K = %d", seed, n, a.Result.K)
		}
		if err := report.WriteOutputs(a, t.TempDir()); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	t.Logf("%d of 6 seeds ended with no features", none)
	if none == 0 {
		t.Error("no seed ended with no features: the test no longer reaches the case it is for")
	}
}

// TestPCADoesNotFollowTheAlgorithmSeed: the randomized PCA of a large folder used to be
// seeded by --seed, so changing the seed of K-means changed the data it clustered.
func TestPCADoesNotFollowTheAlgorithmSeed(t *testing.T) {
	a := pipeline.Request{PCA: 100, Options: learn.Options{Seed: 1}}
	b := pipeline.Request{PCA: 100, Options: learn.Options{Seed: 2, K: 3, Restarts: 7}}
	if pa, pb := pipeline.PCAOptions(a), pipeline.PCAOptions(b); pa.Seed != pipeline.PCASeed || pb.Seed != pipeline.PCASeed || pa.Components != pb.Components {
		t.Errorf("PCA options %+v and %+v for two algorithm seeds", pa, pb)
	}
}

// TestOutputsSavedAmongTheImagesAreNotLoaded: a feature grid saved into the folder of
// the images does not join them at the next load (it made 101 of 100); it is listed
// as skipped, with the reason.
func TestOutputsSavedAmongTheImagesAreNotLoaded(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteSet(dir, "dice"); err != nil {
		t.Fatal(err)
	}
	req := pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: 10, Algorithm: algorithms.MustLookup("kmeans"), Options: learn.Options{K: 3, Restarts: 2}}
	a, err := result.Analyze(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteOutputs(a, dir); err != nil {
		t.Fatal(err)
	}
	again, err := pipeline.Prepare(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, m := len(again.Data.Names), len(a.Data.Names); n != m {
		t.Errorf("%d images after saving the outputs among the %d", n, m)
	}
	if !slices.ContainsFunc(again.Data.Skipped, func(s imgproc.Skip) bool {
		return s.Path == report.FeaturesFile && strings.Contains(s.Reason, "Feature Lab")
	}) {
		t.Errorf("skipped %v, want %s as Feature Lab's own", again.Data.Skipped, report.FeaturesFile)
	}
}

// tabletopStepwise is stepwise with 20 restarts and no λ² on the built-in tabletop, the
// run whose λ² path and readings several tests read, made once per test binary; they
// read it and derive from it, and run other learners on its Prepared, never change it.
var tabletopStepwise = sync.OnceValues(func() (*result.Analysis, error) {
	return result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA,
		Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Restarts: 20, Seed: 1}}, func(p jobs.Progress) { tabletopStages = append(tabletopStages, p.Stage) })
})

// tabletopStages are the stages tabletopStepwise's Analyze reported, in order; set once
// tabletopStepwise has returned.
var tabletopStages []string

// TestStepwiseSummaryHasTheLambda2Path: a stepwise run's JSON carries its λ² path, one
// entry per K that is best for some λ², in increasing K with adjoining intervals; on
// the built-in tabletop K = 5 has the widest interval, as the paper's answer.
func TestStepwiseSummaryHasTheLambda2Path(t *testing.T) {
	accuracy.Check(t)
	a, err := tabletopStepwise()
	if err != nil {
		t.Fatal(err)
	}
	path := saved.SummaryOf(a).Path
	if len(path) < 3 || path[0].Lambda2High != nil {
		t.Fatalf("path %+v", path)
	}
	chosen := false
	for i := 1; i < len(path); i++ {
		p := path[i]
		if p.K <= path[i-1].K || p.Lambda2High == nil || *p.Lambda2High != path[i-1].Lambda2Low {
			t.Fatalf("entry %d %+v does not follow %+v", i, p, path[i-1])
		}
		l := a.Result.Lambda2
		chosen = chosen || p.K == a.Result.K && l > p.Lambda2Low && l < *p.Lambda2High
	}
	if a.Result.K != 5 || !chosen {
		t.Errorf("K = %d at λ² = %v, want K = 5 inside its interval: %+v", a.Result.K, a.Result.Lambda2, path)
	}
}

// TestAtKSwitchesAlongThePath: a stepwise run from its λ² path can be shown at any K of
// the path, with that K's own fit at a λ² inside its interval; a K off the path, or a
// run at a given λ², has nothing to switch to.
func TestAtKSwitchesAlongThePath(t *testing.T) {
	accuracy.Check(t)
	a, err := tabletopStepwise()
	if err != nil {
		t.Fatal(err)
	}
	p := a.Prepared
	for _, e := range a.Path() {
		b, err := a.AtK(e.K)
		if err != nil {
			t.Fatal(err)
		}
		r := b.Result
		if r.K != e.K || r.Lambda2 < e.Low || r.Lambda2 > e.High || learn.ResidualSS(p.Scores, r.Z, r.A) > r.Objective*(1+1e-9)+1e-9 {
			t.Errorf("K = %d: got K = %d at λ² %v (interval %v–%v), objective %v", e.K, r.K, r.Lambda2, e.Low, e.High, r.Objective)
		}
		// The restarts shown are that K's: the best of them is its point on the curve.
		for _, c := range r.Curve {
			if best := slices.Min(append([]float64{math.Inf(1)}, r.RestartObjectives...)); c.K == e.K && math.Abs(best-c.Objective) > 1e-9*c.Objective {
				t.Errorf("K = %d: the best of its %d restarts is %v, its curve point %v", e.K, len(r.RestartObjectives), best, c.Objective)
			}
		}
	}
	if _, err := a.AtK(99); err == nil {
		t.Error("K = 99 is not on the path")
	}
	fixed, err := result.RunOn(context.Background(), p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Lambda2: 20, Restarts: 20, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fixed.Path() != nil {
		t.Error("a run at a given λ² offers a path to switch along")
	}
}
