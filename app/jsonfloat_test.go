package app

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestJSONFloatRoundTrips(t *testing.T) {
	tests := []struct {
		v    float64
		text string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{1e21, "1e+21"},
		{-2.5e-300, "-2.5e-300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{math.Inf(1), `"+Inf"`},
		{math.Inf(-1), `"-Inf"`},
		{math.NaN(), `"NaN"`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(jsonFloat(tc.v))
		if err != nil || string(b) != tc.text {
			t.Errorf("%v: wrote %s, %v; want %s", tc.v, b, err, tc.text)
			continue
		}
		var back jsonFloat
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: %v", b, err)
			continue
		}
		if !sameFloat(float64(back), tc.v) {
			t.Errorf("%s read back as %v, want %v", b, float64(back), tc.v)
		}
	}

	// A list takes the fast path when it holds only numbers, the slow one otherwise.
	for _, list := range [][]float64{nil, {1, 2.25, -3}, {1, math.NaN(), math.Inf(-1), 0}} {
		b, err := json.Marshal(jsonFloats(list))
		if err != nil {
			t.Fatal(err)
		}
		var back jsonFloats
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if len(back) != len(list) {
			t.Fatalf("%s read back as %v", b, back)
		}
		for i := range list {
			if !sameFloat(back[i], list[i]) {
				t.Errorf("%s: element %d read back as %v", b, i, back[i])
			}
		}
	}
}

func TestJSONFloatRejects(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{`"nan"`, "want a number"},
		{`null`, "want a number"},
		{`true`, "want a number"},
		{`1e400`, "out of range"},
		{`[1]`, "want a number"},
	}
	for _, tc := range tests {
		var f jsonFloat
		if err := json.Unmarshal([]byte(tc.text), &f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.text, err, tc.want)
		}
	}
	var list jsonFloats
	if err := json.Unmarshal([]byte(`{"a": 1}`), &list); err == nil || !strings.Contains(err.Error(), "list of numbers") {
		t.Errorf("an object as a list: error %v", err)
	}
	if err := json.Unmarshal([]byte(`[1, "Infinity"]`), &list); err == nil || !strings.Contains(err.Error(), "want a number") {
		t.Errorf("a bad element: error %v", err)
	}
}

// sameFloat is equality that holds for NaN and tells −0 from 0.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
