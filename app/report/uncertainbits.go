package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// SureBit is how far a probability of owning a feature must be from ½ for the bit to be
// called sure: at least 90% one way or the other.
const SureBit = 0.9

// shownUnsure is the most unsure bits UnsureText names.
const shownUnsure = 6

// UnsureText words the bits of one image's code that the sampler was unsure of
// (probabilities in column order: Presentation.Probabilities): "unsure of #3 (owned in
// 45% of the sweeps), #7 (80%)", the least sure named first up to shownUnsure, or
// "every bit sure (90% or more)"; "" with no probabilities.
func UnsureText(probs []float64) string { return unsureText(probs, "owned in %.0f%% of the sweeps") }

// UnsureTextOfNew is UnsureText for a new image coded with an IBP analysis's features
// held fixed (encoding.Encoder): its probabilities are the model's, given the image, not
// shares of sweeps.
func UnsureTextOfNew(probs []float64) string { return unsureText(probs, "%.0f%% likely") }

// unsureText is UnsureText with how the first unsure bit's probability is worded.
func unsureText(probs []float64, first string) string {
	if probs == nil {
		return ""
	}
	type bit struct {
		k int
		p float64
	}
	var unsure []bit
	for k, p := range probs {
		if p > 1-SureBit && p < SureBit {
			unsure = append(unsure, bit{k, p})
		}
	}
	if len(unsure) == 0 {
		return fmt.Sprintf("every bit sure (%.0f%% or more)", 100*SureBit)
	}
	// The least sure first: nearest ½, ties in column order.
	slices.SortStableFunc(unsure, func(a, b bit) int { return cmp.Compare(math.Abs(a.p-0.5), math.Abs(b.p-0.5)) })
	var parts []string
	for n, b := range unsure[:min(len(unsure), shownUnsure)] {
		if n == 0 {
			parts = append(parts, fmt.Sprintf("#%d ("+first+")", b.k+1, 100*b.p))
			continue
		}
		parts = append(parts, fmt.Sprintf("#%d (%.0f%%)", b.k+1, 100*b.p))
	}
	text := "unsure of " + strings.Join(parts, ", ")
	if rest := len(unsure) - shownUnsure; rest > 0 {
		text += fmt.Sprintf(" and %d more", rest)
	}
	return text
}
