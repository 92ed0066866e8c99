package saved

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestOpenChecksListsBeforeReadingThem: lists that disagree with the file's own images,
// or that would take far more memory than the file's bytes (empty codes, empty curve
// points, 3 bytes each in the file), are refused in one line having allocated little
// more than the file itself.
func TestOpenChecksListsBeforeReadingThem(t *testing.T) {
	dir := t.TempDir()
	_, saved := savedNoiseAnalysis(t, dir)
	const flood = 1 << 20 // entries of a crafted list
	set := func(path string, v any) []byte { return editJSON(t, saved, path, func(any) any { return v }) }
	// A flood is written into the file as text: marshalling a million values is slow
	// under the race detector. The bytes are those json.Marshal gives.
	floodOf := func(item string, n int, last ...string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n)+strings.Join(last, ","), ",") + "]"
	}
	setFlood := func(path, list string) []byte {
		const stand = "a list written after"
		doc := set(path, stand)
		if bytes.Count(doc, []byte(`"`+stand+`"`)) != 1 {
			t.Fatalf("%q is not in the file once", stand)
		}
		return bytes.Replace(doc, []byte(`"`+stand+`"`), []byte(list), 1)
	}
	empties := floodOf(`""`, flood)
	fit := func(rows int) map[string]any {
		return map[string]any{"k": 3, "z": slices.Repeat([]string{"100"}, rows), "a": make([]float64, 15), "objective": 1}
	}
	defer func(was int64) { maxDecodedBytes = was }(maxDecodedBytes)
	maxDecodedBytes = 4 << 20

	tests := []struct {
		name    string
		content []byte
		want    string
	}{
		{"3 codes for 10 names", set("result.codes", []string{"100", "010", "001"}), "result codes has 3 rows, want one per image: 10"},
		{"a flood of empty codes", setFlood("result.codes", empties), "result codes has 1048576 rows, want one per image: 10"},
		{"a flood of empty z rows", setFlood("result.z", empties), "result z has 1048576 rows, want one per image: 10"},
		{"a flood of curve points", setFlood("result.curve", floodOf("{}", flood)), "result curve has 1048576 entries, more than the 65536 an analysis can hold"},
		{"a flood of names", setFlood("result.names", floodOf(`""`, flood, `"x"`)), "result names has 1048577 images, more than the 1048576"},
		{"a path fit short of a row", set("path_fits", []any{fit(10), fit(9)}), "path_fits z has 9 rows, want one per image: 10"},
		{"a flood in a field nobody reads", setFlood("padding", empties), "its lists would take 24 MB to read, more than the 4 MB"},
		{"a flood of exposures", setFlood("result.exposure", floodOf("0", flood)), "result exposure has 1048576 rows, want one per image: 10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+Ext)
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Open(path)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("opened")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error\n%s\nwant one line: %s: …%s…", msg, path, tc.want)
			}
			// The file is read whole; what its lists would become is not allocated.
			if got, most := after.TotalAlloc-before.TotalAlloc, uint64(2*len(tc.content))+1<<20; got > most {
				t.Errorf("Open allocated %d bytes for a file of %d, want at most %d", got, len(tc.content), most)
			}
		})
	}
}

// TestScanShapeMeasuresLists: the length of every list by its path, the shortest and
// the longest where a path repeats, and strings holding brackets and escaped quotes
// read as strings.
func TestScanShapeMeasuresLists(t *testing.T) {
	s := scanShape([]byte(`{"a": [1, 2, "x]\"", []], "b": {"c": [{"d": [1]}, {"d": [1, 2, 3]}], "e": {}}, "f": []}`))
	want := map[string]span{"a": {4, 4}, "a[]": {0, 0}, "b.c": {2, 2}, "b.c[].d": {1, 3}, "f": {0, 0}}
	if len(s.lists) != len(want) {
		t.Fatalf("lists %v, want %v", s.lists, want)
	}
	for path, sp := range want {
		if s.lists[path] != sp {
			t.Errorf("%s: %v, want %v", path, s.lists[path], sp)
		}
	}
	if want := int64(8 + 8 + 24 + 24 + 64 + 64 + 8 + 8 + 8 + 8); s.decoded != want {
		t.Errorf("decoded %d bytes, want %d", s.decoded, want)
	}
}
