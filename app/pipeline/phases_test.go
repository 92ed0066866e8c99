package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/jobs"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestEveryPhaseOfADefaultRunReports runs the defaults (stepwise K-features, K from
// objects, exposure auto) and checks that each phase of the run said so as it began:
// the load, the exposure measure, the PCA, the blur the objects are counted through,
// the λ² path, the counting, and, where the path goes on past the objects (random scene
// 110), the small shifts modelled, the second path and its counting; then the reading
// of each feature and the check on half the images. A phase that reports nothing looks
// like a hang in the window (the card deck sat at "90 % · 0.1 s left" for 48 s). The
// path's stages are matched by their beginning: its reports are throttled.
func TestEveryPhaseOfADefaultRunReports(t *testing.T) {
	accuracy.Check(t)
	plain := []string{"Loading images", phaseMatrix, phaseExposure, phasePCA, "Stepwise K-features", phaseBlur,
		"Stepwise K-features: ", phaseObjects, phaseReading, phaseStability}
	shifted := append(append(append([]string(nil), plain[:8]...), phaseShifts,
		"Stepwise K-features, again with small shifts taken out: ", phaseObjectsAgain), plain[8:]...)
	for _, tc := range []struct {
		name   string
		source func(t *testing.T) Source
		want   []string
	}{
		{"tabletop sample", func(*testing.T) Source { return Source{Sample: "tabletop"} }, plain},
		{"random scene 110", func(t *testing.T) Source {
			spec, err := scenes.Random(filepath.Dir(accuracy.SharedData(t, "bsds500-train")), 110)
			if err != nil {
				t.Fatal(err)
			}
			dir, _ := accuracy.WriteScene(t, spec)
			return Source{Dir: dir}
		}, shifted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stages []string
			_, err := analyze(context.Background(), Request{Source: tc.source(t), PCA: DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
				Options: learn.Options{Restarts: 100, Seed: 1}}, func(p jobs.Progress) {
				if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
					stages = append(stages, p.Stage)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			next := 0
			for _, s := range stages {
				if next < len(tc.want) && strings.HasPrefix(s, tc.want[next]) {
					next++
				}
			}
			if next < len(tc.want) {
				t.Errorf("no report of %q (in order) among the stages:\n%s", tc.want[next], strings.Join(stages, "\n"))
			}
		})
	}
}

// analyze is the whole run, load → PCA → learner, as result.Analyze runs it.
func analyze(ctx context.Context, req Request, report func(jobs.Progress)) (*Fitted, error) {
	p, err := Prepare(ctx, req, report)
	if err != nil {
		return nil, err
	}
	return p.RunOn(ctx, req.Algorithm, req.Describe, req.Options, report)
}
