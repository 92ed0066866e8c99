package imgproc

import "strings"

// NaturalLess reports whether slash-separated path a sorts before b in natural order:
// runs of ASCII digits compare by numeric value ("Picture_2" < "Picture_10"), the rest
// case-insensitively, and paths compare folder by folder, so "s2/1.pgm" < "s10/1.pgm"
// and a folder's files stay together. Paths that compare equal this way ("a01", "a1")
// fall back to byte order so the order is total and deterministic.
func NaturalLess(a, b string) bool {
	if c := naturalCompare(a, b); c != 0 {
		return c < 0
	}
	return a < b
}

// naturalCompare compares two paths component by component; a path that is a prefix of
// the other (fewer components) comes first.
func naturalCompare(a, b string) int {
	for {
		ac, arest, amore := strings.Cut(a, "/")
		bc, brest, bmore := strings.Cut(b, "/")
		if c := compareComponent(ac, bc); c != 0 {
			return c
		}
		switch {
		case !amore && !bmore:
			return 0
		case !amore:
			return -1
		case !bmore:
			return 1
		}
		a, b = arest, brest
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// compareComponent compares one path component with digit runs taken as numbers.
func compareComponent(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			if c := compareNumbers(a[si:i], b[sj:j]); c != 0 {
				return c
			}
			continue
		}
		ca, cb := lower(a[i]), lower(b[j])
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return 0
}

// compareNumbers compares two digit strings by value without parsing them, so runs longer
// than an int64 still compare correctly.
func compareNumbers(a, b string) int {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// NaturalOrder is NaturalLess as a comparison function for slices.SortFunc.
func NaturalOrder(a, b string) int {
	switch {
	case NaturalLess(a, b):
		return -1
	case NaturalLess(b, a):
		return 1
	}
	return 0
}
