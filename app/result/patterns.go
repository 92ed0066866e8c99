package result

import (
	"fmt"
	"math"
)

// Pattern is the reading of a feature in a folder with no objects that come and go
// (Analysis.NoObjects): a pattern that a group of pictures shares — a ghost of several
// cards of a deck — which adds nothing to a scene.
const Pattern = "pattern"

// A feature is a shared pattern rather than an object when it is neither stable nor
// cleanly split: held on fewer than patternStability of the held-out halves
// (Analysis.Stability) and separated by less than patternSeparation
// (Analysis.Separation). docs/DESIGN.md has the measurements behind both.
const (
	patternStability  = 0.8
	patternSeparation = 0.8
)

// isPattern reports whether a feature of the given stability and separation is no
// object: neither stable nor cleanly split. An unchecked stability (< 0) or separation
// (NaN) tells nothing.
func isPattern(stability, separation float64) bool {
	return stability >= 0 && stability < patternStability && !math.IsNaN(separation) && separation < patternSeparation
}

// patterns is, per feature in column order, whether it is a shared pattern rather than an
// object (isPattern), and how many features were judged: the base, clusters and features
// whose stability was not checked are not.
func (a *Analysis) patterns() (pattern []bool, counted int) {
	res := a.Result
	if res == nil || res.K == 0 || a.IsClustering() || len(a.Stability) < res.K {
		return nil, 0
	}
	base := a.BaseIndex()
	separation := a.Separation()
	pattern = make([]bool, res.K)
	for k := range pattern {
		if k == base || a.Stability[k] < 0 || math.IsNaN(separation[k]) {
			continue
		}
		counted++
		pattern[k] = isPattern(a.Stability[k], separation[k])
	}
	return pattern, counted
}

// NoObjects reports whether the folder shows no objects that come and go: most of the
// result's features are neither stable nor cleanly split (isPattern), as on a deck of
// distinct cards, whose features are each a ghost of several cards. Its features are then
// read as patterns shared by groups of pictures (Pattern), and KNote says so.
func (a *Analysis) NoObjects() bool { return noObjects(a.patternCount()) }

// noObjects reports whether n shared patterns of counted features judged are most of them.
func noObjects(n, counted int) bool { return counted > 0 && 2*n > counted }

// patternCount is how many features are shared patterns, of how many judged.
func (a *Analysis) patternCount() (n, counted int) {
	pattern, counted := a.patterns()
	return countTrue(pattern), counted
}

// countTrue is how many of b are true.
func countTrue(b []bool) (n int) {
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// noObjectsNote is the sentence KNote gives a folder with no objects that come and go,
// n of whose counted features are shared patterns.
func (a *Analysis) noObjectsNote(n, counted int) string {
	return fmt.Sprintf("No objects come and go in these pictures: %d of the %d features are patterns shared by groups of pictures "+
		"(each found again on only some halves of the pictures, and not cleanly present or absent), so K = %d counts no things",
		n, counted, a.Result.K)
}

// markPatterns rewrites, in a folder with no objects (NoObjects), the effect of every
// feature that is a shared pattern to Pattern; effects is in column order.
func (a *Analysis) markPatterns(effects []string) {
	pattern, counted := a.patterns() // one reading of the separations for both questions
	if !noObjects(countTrue(pattern), counted) {
		return
	}
	for k, p := range pattern {
		if p && k < len(effects) {
			effects[k] = Pattern
		}
	}
}
