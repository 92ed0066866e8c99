package saved

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/app/pipeline"
)

// TestOptionsRoundTripEveryParameter: every learner's options, each parameter set to a
// value of its own that is not its zero (algorithms.OptionParams), and the options no
// parameter sets, read back as they were written; the machine's workers are left out of
// the file, and each parameter is written under its key with "_" for "-".
func TestOptionsRoundTripEveryParameter(t *testing.T) {
	for _, alg := range algorithms.Learners() {
		opt := alg.Params.Defaults()
		for i, p := range algorithms.OptionParams() {
			switch f := p.Field(&opt).(type) {
			case *int:
				*f = 2 + i
			case *uint64:
				*f = math.MaxUint64 - uint64(i)
			case *float64:
				*f = 0.5 + float64(i)
			case *string:
				*f = p.Choices[len(p.Choices)-1]
			}
		}
		opt.MaxIter, opt.MaxK, opt.Init, opt.Alpha0, opt.SigmaX0, opt.SigmaA0 = 7, 9, "ones", 1.5, math.Inf(1), math.NaN()
		opt.Workers = 3
		in := savedOptions{Options: opt, Describe: pipeline.Description{Kind: pipeline.FeaturesWords, Words: 50}}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("%s: %v", alg.Name, err)
		}
		if strings.Contains(string(b), "workers") || !strings.Contains(string(b), `"k_from":`) {
			t.Errorf("%s: written %s", alg.Name, b)
		}
		var out savedOptions
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v", alg.Name, err)
		}
		want := opt
		want.Workers = 0
		if !math.IsNaN(out.Options.SigmaA0) {
			t.Errorf("%s: σ_A0 %v, want NaN", alg.Name, out.Options.SigmaA0)
		}
		out.Options.SigmaA0, want.SigmaA0 = 0, 0
		if !reflect.DeepEqual(out.Options, want) || out.Describe != in.Describe {
			t.Errorf("%s: read back %+v %+v, want %+v %+v", alg.Name, out.Options, out.Describe, want, in.Describe)
		}
	}
}
