package result_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/imgproc"
)

// analysisWithZ is an analysis whose result is just the allocation Z (rows of 0/1).
func analysisWithZ(algo string, data *imgproc.Dataset, rows ...[]float64) *result.Analysis {
	k := len(rows[0])
	Z := mat.NewDense(len(rows), k, nil)
	for i, r := range rows {
		Z.SetRow(i, r)
	}
	return &result.Analysis{Prepared: &pipeline.Prepared{Data: data}, Algorithm: algorithms.MustLookup(algo), Result: &learn.Result{Algorithm: algo, Z: Z, K: k}}
}

func TestCompare(t *testing.T) {
	data := &imgproc.Dataset{}
	left := analysisWithZ("stepwise", data, []float64{1, 0}, []float64{1, 1}, []float64{0, 1}, []float64{0, 0})
	tests := []struct {
		name    string
		right   *result.Analysis
		rand    float64
		matches []result.FeatureMatch
	}{
		{"same features, swapped", analysisWithZ("bpmeans", data, []float64{0, 1}, []float64{1, 1}, []float64{1, 0}, []float64{0, 0}),
			1, []result.FeatureMatch{{0, 1, 1}, {1, 0, 1}}},
		// One feature owned by images 0 and 1 only: codes 1,1,0,0 group {0,1} and {2,3};
		// the left codes are all distinct, so only the 2 pairs within groups disagree.
		{"one coarser feature", analysisWithZ("kmeans", data, []float64{1}, []float64{1}, []float64{0}, []float64{0}),
			4.0 / 6, []result.FeatureMatch{{0, 0, 1}, {1, 0, 1.0 / 3}}},
	}
	for _, tc := range tests {
		c := result.Compare(left, tc.right)
		if math.Abs(c.RandIndex-tc.rand) > 1e-12 {
			t.Errorf("%s: Rand index %v, want %v", tc.name, c.RandIndex, tc.rand)
		}
		if len(c.Matches) != len(tc.matches) {
			t.Fatalf("%s: %d matches, want %d", tc.name, len(c.Matches), len(tc.matches))
		}
		for i, m := range c.Matches {
			w := tc.matches[i]
			if m.Left != w.Left || m.Right != w.Right || math.Abs(m.Jaccard-w.Jaccard) > 1e-12 {
				t.Errorf("%s: match %d = %+v, want %+v", tc.name, i, m, w)
			}
		}
	}
}

func TestSessionKeepsTheLatestResultPerAlgorithmOfTheOpenData(t *testing.T) {
	s := app.NewSession()
	data, other := &imgproc.Dataset{}, &imgproc.Dataset{}
	s.SetData(&pipeline.Prepared{Data: data})
	first := &report.Presentation{Analysis: analysisWithZ("stepwise", data, []float64{1})}
	second := &report.Presentation{Analysis: analysisWithZ("kmeans", data, []float64{1})}
	third := &report.Presentation{Analysis: analysisWithZ("stepwise", data, []float64{0})}
	stale := &report.Presentation{Analysis: analysisWithZ("ibp", other, []float64{1})}
	for _, p := range []*report.Presentation{first, second, third} {
		if !s.Add(p) {
			t.Fatalf("result of %s refused", p.Analysis.Algorithm.Name)
		}
	}
	if s.Add(stale) {
		t.Error("a result on another data set was kept")
	}
	var got []string
	for _, a := range s.Algorithms() {
		got = append(got, a.Name)
	}
	if len(got) != 2 || got[0] != "kmeans" || got[1] != "stepwise" {
		t.Errorf("algorithms %v, want [kmeans stepwise]", got)
	}
	if s.Result(algorithms.MustLookup("stepwise")) != third {
		t.Error("the latest stepwise result is not the one kept")
	}
	s.SetData(&pipeline.Prepared{Data: other})
	if len(s.Algorithms()) != 0 || s.Result(algorithms.MustLookup("kmeans")) != nil {
		t.Error("results survived a new data set")
	}
}
