package algorithms

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"featurelab/algorithms/cosegment"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
)

// walkParams checks every parameter of a family: its default parses and passes, and each
// value out of its range — below, above, NaN, ±Inf, not a number, MaxInt64, MinInt64 —
// is refused in one line that names the parameter.
func walkParams[O any](t *testing.T, owner string, ps Params[O]) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range ps {
		name := owner + " " + p.Key
		if seen[p.Key] {
			t.Errorf("%s: the key appears twice", name)
		}
		seen[p.Key] = true
		if p.Key == "" || p.Label == "" || p.Hint == "" || p.Help == "" {
			t.Errorf("%s: a key, label, hint and help are all needed: %+v", name, p)
		}
		var o O
		if err := p.Set(&o, p.Default); err != nil {
			t.Errorf("%s: default %q refused: %v", name, p.Default, err)
		}
		if got := p.Text(&o); got != p.Default && p.Type != Float {
			t.Errorf("%s: default %q reads back as %q", name, p.Default, got)
		}
		if err := p.Check(&o); err != nil {
			t.Errorf("%s: default fails its check: %v", name, err)
		}
		if p.Type == Choice && (len(p.Choices) == 0 || p.Default != p.Choices[0]) {
			t.Errorf("%s: a choice's default is its first value, got %q of %v", name, p.Default, p.Choices)
		}
		bad := []string{"NaN", "+Inf", "-Inf", "x", "1e999", "9223372036854775807", "-9223372036854775808"}
		if p.Type == Int || p.Type == Float {
			bad = append(bad, formatBound(p.Min-1), formatBound(p.Max*2+1))
		}
		if p.Type == Uint {
			bad = []string{"-1", "NaN", "x", "18446744073709551616"}
		}
		if p.Type == Bool {
			bad = []string{"maybe", "2"}
		}
		if p.Type == Choice {
			bad = []string{"chebyshev", "NaN"}
		}
		for _, text := range bad {
			if p.Type == Float && p.Max >= math.MaxFloat64/2 && text == formatBound(p.Max*2+1) {
				continue // +Inf is tested already
			}
			if p.Type == Float && p.Max > math.MaxInt64 && text == "9223372036854775807" {
				continue // a λ² may be that large
			}
			var o O
			err := p.Set(&o, text)
			if err == nil {
				t.Errorf("%s: %q accepted", name, text)
				continue
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, p.Key+" must be") || strings.Contains(msg, "\n") {
				t.Errorf("%s: %q refused with %q, want one line starting %q", name, text, msg, p.Key+" must be")
			}
		}
		if p.Auto != "" {
			var o O
			if err := p.Set(&o, ""); err != nil {
				t.Errorf("%s: empty refused although it means %s: %v", name, p.Auto, err)
			}
			if err := p.Check(&o); err != nil {
				t.Errorf("%s: its zero (%s) fails the check: %v", name, p.Auto, err)
			}
		}
		if p.Type == Int || p.Type == Float {
			var o O
			if err := p.Set(&o, formatBound(p.Max)); (err == nil) == p.MaxOpen {
				t.Errorf("%s: its upper bound %v: err = %v (open %v)", name, p.Max, err, p.MaxOpen)
			}
		}
	}
}

// TestRegistryParams walks every parameter of every learner, segmenter and the
// co-segmentation.
func TestRegistryParams(t *testing.T) {
	types := map[string]Type{}
	for _, a := range Learners() {
		walkParams(t, a.Name, a.Params)
		if a.Title == "" || a.Summary == "" || a.Fit == nil {
			t.Errorf("%s: title, summary and fit are needed", a.Name)
		}
		for _, p := range a.Params {
			// One flag serves every learner that takes the key: its type must agree.
			if typ, ok := types[p.Key]; ok && typ != p.Type {
				t.Errorf("%s: %s is of type %v here, %v elsewhere", a.Name, p.Key, p.Type, typ)
			}
			types[p.Key] = p.Type
		}
		if err := a.Check(a.Params.Defaults()); err != nil {
			t.Errorf("%s: the defaults fail the check: %v", a.Name, err)
		}
	}
	for _, s := range Segmenters() {
		walkParams(t, "segment "+s.Name, s.Params)
		if s.Title == "" {
			t.Errorf("segmenter %s has no title", s.Name)
		}
	}
	walkParams(t, "cosegment", Cosegmenter)
}

// TestRegistryDefaultsAreThePackages' checks that the registry's defaults are those the
// packages use for a zero field, so the command line, the window and a program that
// leaves a field zero run the same thing.
func TestRegistryDefaultsAreThePackages(t *testing.T) {
	for _, a := range Learners() {
		o := a.Params.Defaults()
		if a.Uses("restarts") && o.Restarts != DefaultRestarts {
			t.Errorf("%s: restarts %d", a.Name, o.Restarts)
		}
		if a.Uses("k") && o.K != learn.DefaultK && !a.ProposesLambda2() {
			t.Errorf("%s: K %d, want learn.DefaultK", a.Name, o.K)
		}
		if o.Seed != DefaultSeed {
			t.Errorf("%s: seed %d", a.Name, o.Seed)
		}
	}
	kpyp, err := LookupSegmenter(segment.MethodKPYP)
	if err != nil {
		t.Fatal(err)
	}
	o := kpyp.Options()
	if o.Truncation != segment.DefaultTruncation || o.Discount != segment.DefaultDiscount || o.Stride != segment.DefaultStride ||
		o.Texture != segment.DefaultTexture || o.Distance != segment.DistanceGeodesic || o.Method != segment.MethodKPYP {
		t.Errorf("KPYP defaults %+v", o)
	}
	c := Cosegmenter.Defaults()
	if c.K != cosegment.DefaultTargetK || c.Cell != cosegment.DefaultCell || c.Restarts != cosegment.DefaultRestarts {
		t.Errorf("cosegment defaults %+v", c)
	}
}

// TestSegmenterBoundsArePackages checks the registry accepts what segment accepts at its
// edges: a truncation of 1 (which the command line once refused) and the most labels.
func TestSegmenterBoundsArePackages(t *testing.T) {
	kpyp, _ := LookupSegmenter(segment.MethodKPYP)
	p, _ := kpyp.Params.Lookup("truncation")
	for _, v := range []int{1, segment.MaxLabels} {
		var o segment.Options
		if err := p.Set(&o, strconv.Itoa(v)); err != nil {
			t.Errorf("truncation %d refused: %v", v, err)
		}
	}
	var o segment.Options
	if err := p.Set(&o, strconv.Itoa(segment.MaxLabels+1)); err == nil {
		t.Error("a truncation past the label range accepted")
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("kmedoids"); err == nil || !strings.Contains(err.Error(), "stepwise") {
		t.Errorf("Lookup of an unknown name: %v", err)
	}
	if Title("ibp") != "IBP Gibbs sampler" || Title("nope") != "nope" {
		t.Errorf("Title: %q, %q", Title("ibp"), Title("nope"))
	}
	if !MustLookup("stepwise").ChoosesLambda2() || !Takes("ibp", "chains") || Takes("ibp", "restarts") || Takes("nope", "k") {
		t.Error("ChoosesLambda2, Takes")
	}
}
