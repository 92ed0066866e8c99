package pipeline

import (
	"fmt"
	"strconv"
	"strings"

	"featurelab/imgproc"
)

// Colour choices of the loader, as the window and the command line name them.
const (
	ColourAuto = "auto"
	ColourRGB  = "colour"
	ColourGrey = "grey"
)

// ColourChoices lists the colour choices in the order the window offers them.
var ColourChoices = []string{ColourAuto, ColourRGB, ColourGrey}

// LoadChoices are the loading options a user sets as text: colour mode, common size
// ("320x240", or empty for the most common working size), the number of PCA components
// and what to do about exposure.
type LoadChoices struct {
	Colour   string
	Size     string
	PCA      string
	Exposure string // ExposureChoices; empty is ExposureAuto
}

// Request turns the choices into a request for src, or says which choice is wrong.
func (c LoadChoices) Request(src Source) (Request, error) {
	req := Request{Source: src, PCA: DefaultPCA}
	switch c.Colour {
	case ColourAuto, "":
		req.Load.Color = imgproc.ColorAuto
	case ColourRGB:
		req.Load.Color = imgproc.ColorRGB
	case ColourGrey:
		req.Load.Color = imgproc.ColorGray
	default:
		return req, fmt.Errorf("colour must be one of %v, got %q", ColourChoices, c.Colour)
	}
	w, h, err := ParseSize(c.Size)
	if err != nil {
		return req, err
	}
	if req.Exposure, err = ParseExposure(c.Exposure); err != nil {
		return req, err
	}
	req.Load.Width, req.Load.Height = w, h
	if s := strings.TrimSpace(c.PCA); s != "" {
		d, err := strconv.Atoi(s)
		if err != nil || d < 0 {
			return req, fmt.Errorf("pca must be a whole number ≥ 0 (0 = no PCA), got %q", c.PCA)
		}
		req.PCA = d
	}
	return req, nil
}

// ParseSize reads a common image size "WxH" (or "W×H"); empty means the most common working size
// among the images and gives 0, 0.
func ParseSize(s string) (w, h int, err error) {
	s = strings.TrimSpace(strings.ReplaceAll(strings.ToLower(s), "×", "x"))
	if s == "" {
		return 0, 0, nil
	}
	ws, hs, ok := strings.Cut(s, "x")
	w, errW := strconv.Atoi(strings.TrimSpace(ws))
	h, errH := strconv.Atoi(strings.TrimSpace(hs))
	if !ok || errW != nil || errH != nil || w < 1 || h < 1 {
		return 0, 0, fmt.Errorf("size must look like 320x240, got %q", s)
	}
	// Each side is checked before the product, which would overflow for sides past 2³¹
	// (4294967296x4294967296 multiplies to 0) and pass the check.
	if w > imgproc.DefaultMaxPixels || h > imgproc.DefaultMaxPixels || int64(w)*int64(h) > imgproc.DefaultMaxPixels {
		return 0, 0, fmt.Errorf("size %dx%d exceeds the %d MP budget", w, h, imgproc.DefaultMaxPixels/1_000_000)
	}
	return w, h, nil
}
