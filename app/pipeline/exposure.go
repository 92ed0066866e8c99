package pipeline

import (
	"fmt"
	"math"
	"strings"

	"featurelab/imgproc"
)

// Exposure choices, as the window and the command line name them.
const (
	// ExposureAuto measures each picture's exposure gain and, when the folder's pictures
	// tell it (half of them or more), divides it out before the PCA, so that no binary
	// feature is spent on pictures taken brighter or darker.
	ExposureAuto = "auto"
	// ExposureNone keeps the pictures as they were taken: the papers' exact model.
	ExposureNone = "none"
)

// ExposureChoices lists the exposure choices in the order the window offers them.
var ExposureChoices = []string{ExposureAuto, ExposureNone}

// ParseExposure checks an exposure choice; empty is ExposureAuto.
func ParseExposure(s string) (string, error) {
	switch s = strings.TrimSpace(s); s {
	case "", ExposureAuto:
		return ExposureAuto, nil
	case ExposureNone:
		return ExposureNone, nil
	}
	return "", fmt.Errorf("exposure must be one of %v, got %q", ExposureChoices, s)
}

// ExposureHandling is what a load did about exposure.
type ExposureHandling struct {
	Mode string // ExposureAuto or ExposureNone, as asked
	// Measured is each picture's gain (imgproc.MeasureExposure) when Mode is auto.
	Measured imgproc.Exposure
	// Divided is whether the gains were divided out of the pictures before the PCA.
	Divided bool
}

// handleExposure measures ds's exposure and, when half of its pictures or more tell
// their gain and some differ by more than exposureSlight, divides the gains out of ds's
// pictures. progress, when not nil, hears of the pictures measured.
func handleExposure(ds *imgproc.Dataset, mode string, progress func(done, total int)) ExposureHandling {
	h := ExposureHandling{Mode: mode}
	if mode == ExposureNone {
		return h
	}
	h.Measured = ds.MeasureExposure(progress)
	lo, hi := h.Measured.Range()
	if 2*h.Measured.Count() >= len(ds.Names) && (lo < 1-exposureSlight || hi > 1+exposureSlight) {
		ds.DivideExposure(h.Measured.Gains)
		h.Divided = true
	}
	return h
}

// exposureSlight is the change of light too slight to divide out: within ±1 % a picture is
// as good as taken at the folder's exposure (JPEG and rounding alone measure less), and
// dividing such gains out only moves the data.
const exposureSlight = 0.01

// Gains is, per picture, the gain divided out of it; nil when none was.
func (h ExposureHandling) Gains() []float64 {
	if !h.Divided {
		return nil
	}
	return h.Measured.Gains
}

// Note says in a sentence what was done about exposure and why.
func (h ExposureHandling) Note() string {
	switch {
	case h.Mode == ExposureNone:
		return "Exposure: kept as taken (exposure none)."
	case h.Divided:
		lo, hi := h.Measured.Range()
		return fmt.Sprintf("Exposure: %d of %d pictures taken between %+.1f %% and %+.1f %% of the typical picture's light; divided out before the PCA.",
			h.Measured.Count(), len(h.Measured.Gains), 100*(lo-1), 100*(hi-1))
	}
	if lo, hi := h.Measured.Range(); 2*h.Measured.Count() >= len(h.Measured.Gains) {
		return fmt.Sprintf("Exposure: kept as taken: %d of %d pictures within %+.1f %% and %+.1f %% of the typical picture's light, too slight to divide out.",
			h.Measured.Count(), len(h.Measured.Gains), 100*(lo-1), 100*(hi-1))
	}
	return fmt.Sprintf("Exposure: kept as taken: %d of %d pictures show a gain all over (a dark or changing scene tells little).",
		h.Measured.Count(), len(h.Measured.Gains))
}

// PictureText says in a few words how bright picture i was taken, when its gain was
// divided out: "taken 3.6 % brighter than the folder's typical picture, shown evened
// out"; "" otherwise.
func (h ExposureHandling) PictureText(i int) string {
	g := h.Gains()
	if i < 0 || i >= len(g) || !h.Measured.Measured[i] {
		return ""
	}
	way := "brighter"
	if g[i] < 1 {
		way = "darker"
	}
	return fmt.Sprintf("taken %.1f %% %s than the folder's typical picture, shown evened out", 100*math.Abs(g[i]-1), way)
}
