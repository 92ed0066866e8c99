package saved

import (
	"encoding/json"
	"io"
)

// IsAnalysis reports whether r reads a saved analysis (any version): a JSON object whose
// first field is "format": "featurelab-analysis", as Save writes it. It is how a save
// knows a file it may replace (atomicfile.Mine); Open checks the rest.
func IsAnalysis(r io.Reader) bool {
	key, value := firstField(r)
	return key == "format" && value == savedFormat
}

// IsResult reports whether r reads a result.json Feature Lab wrote (FullResult): a JSON
// object whose first field is "algorithm", a name, as WriteJSON writes a Summary. It is
// how `analyze --out` knows a result.json it may replace (atomicfile.Mine).
func IsResult(r io.Reader) bool {
	key, value := firstField(r)
	_, isName := value.(string)
	return key == "algorithm" && isName
}

// firstField is the name and, when it is a string, the value of the first field of the
// JSON object r starts with; "" when r does not start with one.
func firstField(r io.Reader) (key string, value any) {
	dec := json.NewDecoder(io.LimitReader(r, 1<<16))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", nil
	}
	t, err := dec.Token()
	if err != nil {
		return "", nil
	}
	key, _ = t.(string)
	if t, err = dec.Token(); err != nil {
		return "", nil
	}
	return key, t
}
