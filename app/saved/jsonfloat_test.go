package saved

import (
	"encoding/json"
	"errors"
	"math"
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

// TestJSONFloatRejects: what is not a number is encoding/json's own type error, which
// the decoder of a whole file completes with the field's name.
func TestJSONFloatRejects(t *testing.T) {
	tests := []struct {
		into  any
		text  string
		value string
	}{
		{new(jsonFloat), `"nan"`, `string "nan"`},
		{new(jsonFloat), `"a much longer string than that"`, `string "a much longer strin…`},
		{new(jsonFloat), `null`, "null"},
		{new(jsonFloat), `true`, "bool"},
		{new(jsonFloat), `1e400`, "number 1e400"},
		{new(jsonFloat), "[1,\n2]", "array"},
		{new(jsonFloats), `{"a": 1}`, "object"},
		{new(jsonFloats), `[1, "Infinity"]`, `string "Infinity"`},
		{new(jsonFloats), `[1, 1e999]`, "number 1e999"},
		{new(struct {
			A jsonFloats `json:"a"`
		}), `{"a": [1, "x"]}`, `string "x"`},
	}
	for _, tc := range tests {
		err := json.Unmarshal([]byte(tc.text), tc.into)
		var typ *json.UnmarshalTypeError
		if !errors.As(err, &typ) || typ.Value != tc.value {
			t.Errorf("%s: error %v, want a type error for %s", tc.text, err, tc.value)
		}
	}
	var field struct {
		Result struct {
			A jsonFloats `json:"a"`
		} `json:"result"`
	}
	err := json.Unmarshal([]byte(`{"result": {"a": [1, "x"]}}`), &field)
	if typ := (*json.UnmarshalTypeError)(nil); !errors.As(err, &typ) || typ.Field != "result.a" {
		t.Errorf("error %v names no field result.a", err)
	}
}

// sameFloat is equality that holds for NaN and tells −0 from 0.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
