package imgproc

import (
	"slices"
	"testing"
)

func TestNaturalLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Picture_2.jpg", "Picture_10.jpg", true},
		{"Picture_10.jpg", "Picture_2.jpg", false},
		{"Picture_9.jpg", "Picture_9.jpg", false},
		{"s2/1.pgm", "s10/1.pgm", true},
		{"s1/10.pgm", "s2/1.pgm", true},
		{"s1/2.pgm", "s1/10.pgm", true},
		{"s1/10.pgm", "s1.txt", true}, // a folder's files stay together
		{"a/b.png", "a.png", true},    // a folder sorts before a longer name it prefixes
		{"a", "a/b.png", true},        // fewer components first
		{"img007.png", "img8.png", true},
		{"a01", "a1", true}, // equal by value: byte order decides
		{"a1", "a01", false},
		{"Apple", "banana", true}, // case-insensitive
		{"apple", "Banana", true},
		{"x99999999999999999999999", "x100000000000000000000000", true}, // longer than int64
		{"", "a", true},
		{"a", "", false},
		{"2", "a", true},
	}
	for _, tt := range tests {
		if got := NaturalLess(tt.a, tt.b); got != tt.want {
			t.Errorf("NaturalLess(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNaturalSortOrder(t *testing.T) {
	got := []string{"s10/1.pgm", "s1/10.pgm", "s2/1.pgm", "s1/2.pgm", "s1/1.pgm", "Picture_100.jpg", "Picture_10.jpg", "Picture_1.jpg"}
	want := []string{"Picture_1.jpg", "Picture_10.jpg", "Picture_100.jpg", "s1/1.pgm", "s1/2.pgm", "s1/10.pgm", "s2/1.pgm", "s10/1.pgm"}
	slices.SortFunc(got, func(a, b string) int {
		if NaturalLess(a, b) {
			return -1
		}
		if NaturalLess(b, a) {
			return 1
		}
		return 0
	})
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %v\nwant     %v", got, want)
	}
}
