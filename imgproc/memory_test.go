package imgproc

import (
	"fmt"
	"image"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// adviceSize finds the size a refusal's advice gives after the words before ("load them
// at", "in grey at"); ok is false when it gives none.
func adviceSize(advice, before string) (image.Point, bool) {
	m := regexp.MustCompile(regexp.QuoteMeta(before) + ` (\d+)x(\d+)`).FindStringSubmatch(advice)
	if m == nil {
		return image.Point{}, false
	}
	w, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	return image.Pt(w, h), true
}

// TestSmallerAdviceFitsWhenApplied applies what a refusal advises — the size, grey, grey
// at a size — and checks the same estimate then fits; where nothing is advised, that even
// the smallest size does not fit. The estimates include the shapes that made the old
// advice (pixels times a ratio) wrong: a run whose memory does not shrink with the
// pixels, grows with the square of the images, or jumps as the method changes.
func TestSmallerAdviceFitsWhenApplied(t *testing.T) {
	runs := map[string]func(n int, p int64) int64{
		"pixels only":  func(n int, p int64) int64 { return 0 },
		"per sample":   func(n int, p int64) int64 { return 9 * int64(n) * p },
		"fixed":        func(n int, p int64) int64 { return 24 * int64(n) * int64(n) },
		"fixed + some": func(n int, p int64) int64 { return 8*int64(n)*int64(n) + 2*int64(n)*p },
		"jumps": func(n int, p int64) int64 { // a cheaper method for large pictures
			if p >= 1000 {
				return 4 * int64(n) * p
			}
			return 32 * int64(n) * p
		},
	}
	type tc struct {
		n        int
		size     image.Point
		channels int
		noGray   bool
		budget   int64
	}
	var cases []tc
	for _, n := range []int{2, 300, 2000} {
		for _, size := range []image.Point{{35, 36}, {320, 240}, {40, 300}} {
			for _, channels := range []int{1, 3} {
				for _, budget := range []int64{200 << 10, 5 << 20, 50 << 20} {
					cases = append(cases, tc{n, size, channels, false, budget}, tc{n, size, channels, true, budget})
				}
			}
		}
	}
	suggested, none, notSmaller := 0, 0, 0
	for name, run := range runs {
		for _, c := range cases {
			need := func(size image.Point, channels int) int64 {
				p := int64(size.X) * int64(size.Y) * int64(channels)
				return DataBytes(c.n, int(p)) + run(c.n, p)
			}
			if need(c.size, c.channels) <= c.budget {
				continue // not refused
			}
			ds := &Dataset{Names: make([]string, c.n), Width: c.size.X, Height: c.size.Y, Channels: c.channels}
			advice := smallerAdvice(ds, Options{Memory: c.budget, NoGray: c.noGray}, need)
			what := fmt.Sprintf("%s, %d images of %v×%d, budget %d, no grey %v: %q", name, c.n, c.size, c.channels, c.budget, c.noGray, advice)
			ways := 0
			// Every size the advice names must fit, and with "or smaller" every smaller one
			// on the way down too.
			fitsDown := func(s image.Point, channels int) {
				if got := need(s, channels); got > c.budget {
					t.Errorf("%s: at %v×%d they need %d", what, s, channels, got)
				}
				if !strings.Contains(advice, fmt.Sprintf("%dx%d or smaller", s.X, s.Y)) {
					notSmaller++
					return
				}
				for _, smaller := range advisedSizes(c.size) {
					if smaller.X > s.X || smaller.Y > s.Y {
						break
					}
					if got := need(smaller, channels); got > c.budget {
						t.Errorf("%s: %v×%d or smaller, yet %v needs %d", what, s, channels, smaller, got)
					}
				}
			}
			if s, ok := adviceSize(advice, "load them at"); ok {
				ways++
				fitsDown(s, c.channels)
				if s.X >= c.size.X && s.Y >= c.size.Y {
					t.Errorf("%s: %v is not smaller", what, s)
				}
			}
			if s, ok := adviceSize(advice, "in grey at"); ok {
				ways++
				fitsDown(s, 1)
			}
			if strings.Contains(advice, "in grey (--gray)") {
				ways++
				if got := need(c.size, 1); got > c.budget {
					t.Errorf("%s: in grey they need %d", what, got)
				}
			}
			if ways > 0 && (c.noGray || c.channels == 1) && strings.Contains(advice, "grey") {
				t.Errorf("%s: grey advised where there is none to give", what)
			}
			if ways == 0 {
				none++
				least := smallestAdvised(c.size)
				if !strings.Contains(advice, "fewer images") || need(least, 1) <= c.budget && !c.noGray {
					t.Errorf("%s: no size advised, yet %v fits in grey", what, least)
				}
				if need(least, c.channels) <= c.budget {
					t.Errorf("%s: no size advised, yet %v fits", what, least)
				}
				continue
			}
			suggested++
		}
	}
	if suggested < 50 || none < 10 || notSmaller == 0 {
		t.Errorf("%d refusals advised a size (%d not \"or smaller\") and %d none: the table does not cover all three", suggested, notSmaller, none)
	}
}

// TestFittingSize: the size keeps the aspect ratio, stays at least 8 pixels on its
// shorter side, is the largest that fits, and is said to hold "or smaller" only when
// every smaller one fits too.
func TestFittingSize(t *testing.T) {
	area := func(limit int) func(image.Point) bool {
		return func(s image.Point) bool { return s.X*s.Y <= limit }
	}
	tests := []struct {
		size           image.Point
		fits           func(image.Point) bool
		want           image.Point
		andSmaller, ok bool
	}{
		{image.Pt(35, 36), area(900), image.Pt(29, 30), true, true},
		{image.Pt(320, 240), area(76800 / 4), image.Pt(160, 120), true, true},
		{image.Pt(240, 320), area(76800 / 4), image.Pt(120, 160), true, true},
		{image.Pt(320, 240), area(63), image.Point{}, false, false}, // 11×8 is the least
		{image.Pt(6, 4), area(10), image.Point{}, false, false},     // smaller than 8 already: none smaller advised
		// Fits between 100 and 200 pixels of the longer side only: 200 wide, not smaller.
		{image.Pt(400, 300), func(s image.Point) bool { return s.X >= 100 && s.X <= 200 }, image.Pt(200, 150), false, true},
		{image.Pt(400, 300), func(s image.Point) bool { return s.X < 50 || (s.X > 60 && s.X < 90) }, image.Pt(89, 67), false, true},
		{image.Pt(400, 300), func(s image.Point) bool { return s.X < 50 }, image.Pt(49, 37), true, true},
	}
	for _, tt := range tests {
		got, andSmaller, ok := FittingSize(tt.size, tt.fits)
		if got != tt.want || andSmaller != tt.andSmaller || ok != tt.ok {
			t.Errorf("FittingSize(%v) = %v, %v, %v; want %v, %v, %v", tt.size, got, andSmaller, ok, tt.want, tt.andSmaller, tt.ok)
		}
	}
}
