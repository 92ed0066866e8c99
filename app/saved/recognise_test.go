package saved

import (
	"os"
	"strings"
	"testing"
)

// TestRecognise: saved analyses of either version are analyses, result.json files are
// results, and neither is taken for the other or for another JSON file or a picture.
func TestRecognise(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name               string
		data               string
		analysis, isResult bool
	}{
		{"version 1 analysis", read("testdata/v1-dice-ibp.featurelab"), true, false},
		{"version 2 analysis", `{"format":"featurelab-analysis","version":2,"source":{}}`, true, false},
		{"result.json", read("testdata/v1-dice-stepwise.result.json"), false, true},
		{"indented result.json", "{\n  \"algorithm\": \"kmeans\",\n  \"source\": \"x\"", false, true},
		{"another format", `{"format":"featurelab-result"}`, false, false},
		{"another JSON", `{"name":"algorithm"}`, false, false},
		{"a number for a name", `{"algorithm":3}`, false, false},
		{"a picture", "\x89PNG\r\n\x1a\n", false, false},
		{"empty", "", false, false},
	}
	for _, tt := range tests {
		if got := IsAnalysis(strings.NewReader(tt.data)); got != tt.analysis {
			t.Errorf("%s: IsAnalysis %v", tt.name, got)
		}
		if got := IsResult(strings.NewReader(tt.data)); got != tt.isResult {
			t.Errorf("%s: IsResult %v", tt.name, got)
		}
	}
}
