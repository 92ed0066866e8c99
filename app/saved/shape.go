package saved

import (
	"fmt"
	"strings"
)

// A saved file's lists are checked against the file's own sizes before encoding/json
// builds them: a list of empty strings or empty objects costs the file 3 bytes an entry
// and the reader 24 or more, so a file under maxSavedBytes could otherwise make the
// reader allocate gigabytes before any check ran.

// maxSavedImages bounds the images a saved analysis names: far beyond any folder a run
// can load, and small enough that the per-image lists it allows fit in memory.
const maxSavedImages = 1 << 20

// maxDecodedBytes bounds what the decoded lists of a file may take (decodedBytes): as
// much as the largest file itself, several times what a real file's lists need, whose
// numbers take more bytes written than read. A variable so that tests can lower it.
var maxDecodedBytes int64 = maxSavedBytes

// span is the shortest and the longest of the lists found at one path of a file.
type span struct{ min, max int }

// shape is what scanShape learns of a file: the length of its lists by path
// ("result.z", "path_fits[].z"), and what encoding/json would allocate for them.
type shape struct {
	lists   map[string]span
	decoded int64
}

// maxShapePaths bounds the distinct paths a shape records: a file has a few dozen, and
// a hostile one with millions of distinct keys must not make the map as large.
const maxShapePaths = 1024

// scanShape walks b, valid JSON, without decoding it. It allocates only the map of
// paths, whatever b holds.
func scanShape(b []byte) shape {
	type frame struct {
		array bool
		base  int // len(path) when the container opened: the container's own path
		n     int
	}
	s := shape{lists: map[string]span{}}
	var stack []frame
	path := make([]byte, 0, 64)
	expectKey := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case ',':
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
			continue
		case ']', '}':
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.array {
				s.record(path[:top.base], top.n)
			}
			path = path[:top.base]
			expectKey = false
			continue
		}
		if expectKey { // c is '"': the key of the next member
			end := stringEnd(b, i)
			top := stack[len(stack)-1]
			path = path[:top.base]
			if top.base > 0 {
				path = append(path, '.')
			}
			path = append(path, b[i+1:end]...)
			i, expectKey = end, false
			continue
		}
		if len(stack) > 0 && stack[len(stack)-1].array {
			stack[len(stack)-1].n++
			s.decoded += decodedSize(c)
		}
		switch c {
		case '{':
			stack = append(stack, frame{base: len(path)})
			expectKey = true
		case '[':
			stack = append(stack, frame{array: true, base: len(path)})
			path = append(path, "[]"...)
		case '"':
			i = stringEnd(b, i)
		default: // a number, true, false or null
			for i+1 < len(b) && !isDelimiter(b[i+1]) {
				i++
			}
		}
	}
	return s
}

// record notes a list of n entries at path.
func (s *shape) record(path []byte, n int) {
	sp, ok := s.lists[string(path)]
	switch {
	case !ok && len(s.lists) >= maxShapePaths:
		return
	case !ok:
		sp = span{n, n}
	default:
		sp.min, sp.max = min(sp.min, n), max(sp.max, n)
	}
	s.lists[string(path)] = sp
}

// decodedSize is what encoding/json allocates for one list entry that starts with c, at
// most: a float64, a string or slice header, or a struct of the file's.
func decodedSize(c byte) int64 {
	switch c {
	case '"', '[':
		return 24
	case '{':
		return 64
	}
	return 8
}

// stringEnd is the index of the quote that closes the string opening at b[i].
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b)
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// listRule says how long the list at a path must be, given the file's images n.
type listRule struct {
	path     string
	name     string // in messages; displayPath(path) when empty
	perImage bool   // exactly one entry per image (an empty list allowed where optional)
	optional bool   // may be empty whatever n is
	most     int    // otherwise at most this many entries
}

// savedLists are the lists of a version-2 file that are checked before it is decoded.
var savedLists = []listRule{
	{path: "result.z", perImage: true},
	{path: "result.codes", perImage: true},
	{path: "result.z_probability", perImage: true, optional: true},
	{path: "result.exposure", perImage: true, optional: true},
	{path: "other_reading.z", perImage: true},
	{path: "path_fits[].z", perImage: true},
	{path: "ibp.map_z.rows", name: "ibp map_z", perImage: true, optional: true},
	{path: "result.resized", most: maxSavedImages},
	{path: "result.a", most: maxSavedK},
	{path: "result.per_feature", most: maxSavedK},
	{path: "result.curve", most: maxSavedK},
	{path: "result.path", most: maxSavedK},
	{path: "result.k_histogram", most: maxSavedK + 1},
	{path: "path_fits", most: maxSavedK},
}

// savedListsV1 are those of a version-1 file.
var savedListsV1 = []listRule{
	{path: "result.z", perImage: true},
	{path: "other_reading.z", perImage: true, optional: true},
	{path: "result.path_fits[].z", perImage: true},
	{path: "result.map_z.rows", name: "ibp map_z", perImage: true, optional: true},
	{path: "result.curve", most: maxSavedK},
	{path: "result.k_histogram", most: maxSavedK + 1},
	{path: "result.path_fits", most: maxSavedK},
	{path: "stability", most: maxSavedK},
}

// checkShape checks a file's lists before it is decoded: no more images than
// maxSavedImages (names is where the file lists them), every per-image list one entry
// per image, the others within their bounds, and all of them within maxDecodedBytes.
func checkShape(b []byte, names string, rules []listRule) error {
	s := scanShape(b)
	n := s.lists[names].max
	if n == 0 { // as checkSize says it
		return fmt.Errorf("%s has no image names", strings.TrimSuffix(displayPath(names), " names"))
	}
	if n > maxSavedImages {
		return fmt.Errorf("%s has %d images, more than the %d an analysis can hold", displayPath(names), n, maxSavedImages)
	}
	for _, r := range rules {
		sp, ok := s.lists[r.path]
		switch {
		case !ok:
		case r.perImage && r.optional && sp.max == 0:
		case r.perImage && (sp.min != n || sp.max != n):
			got := sp.max
			if sp.max == n {
				got = sp.min
			}
			return fmt.Errorf("%s has %d rows, want one per image: %d", r.display(), got, n)
		case !r.perImage && sp.max > r.most:
			return fmt.Errorf("%s has %d entries, more than the %d an analysis can hold", r.display(), sp.max, r.most)
		}
	}
	if s.decoded > maxDecodedBytes {
		return fmt.Errorf("its lists would take %d MB to read, more than the %d MB any analysis needs", s.decoded>>20, maxDecodedBytes>>20)
	}
	return nil
}

// display is the rule's list as the file's other messages name it.
func (r listRule) display() string {
	if r.name != "" {
		return r.name
	}
	return displayPath(r.path)
}

// displayPath writes a path as the file's other messages do: "result z", "path_fits z".
func displayPath(p string) string {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '.':
			out = append(out, ' ')
		case p[i] == '[' && i+1 < len(p) && p[i+1] == ']':
			i++
		default:
			out = append(out, p[i])
		}
	}
	return string(out)
}
