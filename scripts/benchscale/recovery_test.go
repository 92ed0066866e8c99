package main

import (
	"fmt"
	"testing"
)

// TestRecovered: objects are matched to features as they are or complemented, a spare
// feature is ignored, and a picture counts only when every object is right on it.
func TestRecovered(t *testing.T) {
	f := &folder{n: 16}
	var names, codes []string
	for i := range f.n {
		var present [objects]bool
		for k := range present {
			present[k] = i>>k&1 == 1
		}
		f.truth = append(f.truth, present)
		f.names = append(f.names, fmt.Sprintf("img%06d.png", i))
		// Features: spare, object 2, not object 0 (a base showing it), object 3, object 1.
		code := []byte{'0', b(present[2]), b(!present[0]), b(present[3]), b(present[1])}
		names = append(names, "sub/"+f.names[i])
		codes = append(codes, string(code))
	}
	if got, err := recovered(f, names, codes); err != nil || got != 1 {
		t.Fatalf("recovered %v, %v; want all", got, err)
	}
	codes[5] = "0" + codes[5][1:4] + string(flip(codes[5][4])) // object 1 wrong on one picture
	if got, _ := recovered(f, names, codes); got != 15.0/16 {
		t.Fatalf("recovered %v, want 15/16", got)
	}
	if _, err := recovered(f, names[:3], codes[:3]); err == nil {
		t.Fatal("a result for fewer pictures than the folder must be an error")
	}
}

func b(v bool) byte {
	if v {
		return '1'
	}
	return '0'
}

func flip(c byte) byte { return '0' + '1' - c }
