package saved

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// jsonFloat is a float64 that JSON carries whatever its value: finite values and the
// infinities come back bit for bit, NaN as NaN. A finite value is a JSON number in the
// shortest form that reads back to the same float; NaN, +Inf and −Inf, which JSON has
// no number for and encoding/json refuses to write, are the strings "NaN", "+Inf" and
// "-Inf". A saved analysis uses it where the exports use finite: a restart that never
// finished (+Inf) or a log joint never reached (−Inf) must come back as it was, not as
// the −1 the summary shows.
type jsonFloat float64

// MarshalJSON writes f as a number, or as one of the strings for NaN and ±Inf.
func (f jsonFloat) MarshalJSON() ([]byte, error) { return appendJSONFloat(nil, float64(f)), nil }

// UnmarshalJSON reads what MarshalJSON writes.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	v, err := parseJSONFloat(b)
	if err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

// jsonFloats is a []float64 written element by element as jsonFloat writes one value.
type jsonFloats []float64

// MarshalJSON writes s as a JSON array; nil is an empty array.
func (s jsonFloats) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(s)*20)
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONFloat(b, v)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; null is nil.
func (s *jsonFloats) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == 'n':
		*s = nil
		return nil
	case len(b) == 0 || b[0] != '[':
		return typeError(b, reflect.TypeFor[jsonFloats]())
	}
	// Nearly every array is plain numbers: encoding/json reads those fast. Only an
	// array holding a "NaN" or "±Inf" pays for reading its elements one by one.
	var plain []float64
	if err := json.Unmarshal(b, &plain); err == nil {
		*s = plain
		return nil
	}
	var each []jsonFloat
	if err := json.Unmarshal(b, &each); err != nil {
		return err // an element's typeError, which the caller's decoder puts the field name in
	}
	out := make([]float64, len(each))
	for i, v := range each {
		out[i] = float64(v)
	}
	*s = out
	return nil
}

func appendJSONFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Inf"`...)
	}
	// 'g' with the shortest precision is a valid JSON number ("1e+21", "-0", "0.5").
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// parseJSONFloat reads one JSON value that encoding/json has already checked is
// well-formed: a number, or one of the strings appendJSONFloat writes.
func parseJSONFloat(b []byte) (float64, error) {
	if len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9') {
		v, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			// Only a number beyond ±1.8e308 gets here: JSON's numbers are Go's.
			return 0, typeError(b, reflect.TypeFor[jsonFloat]())
		}
		return v, nil
	}
	switch string(b) {
	case `"NaN"`:
		return math.NaN(), nil
	case `"+Inf"`, `"Inf"`:
		return math.Inf(1), nil
	case `"-Inf"`:
		return math.Inf(-1), nil
	}
	return 0, typeError(b, reflect.TypeFor[jsonFloat]())
}

// typeError refuses the JSON value b for a t. It is encoding/json's own error type, so
// that the decoder of the whole file fills in which field it was ("result.a").
func typeError(b []byte, t reflect.Type) error {
	value := "nothing"
	switch {
	case len(b) == 0:
	case b[0] == '"':
		// JSON strings hold no line breaks: the message stays one line.
		value = "string " + string(b)
		if len(b) > 24 {
			value = "string " + string(b[:20]) + "…"
		}
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		value = "number " + string(b)
	default:
		value = map[byte]string{'{': "object", '[': "array", 't': "bool", 'f': "bool", 'n': "null"}[b[0]]
	}
	return &json.UnmarshalTypeError{Value: value, Type: t}
}
