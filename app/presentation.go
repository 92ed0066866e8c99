package app

import (
	"image"
	"sort"
)

// Presentation is everything the window shows about an analysis, computed once on the
// background job so the UI goroutine only lays it out.
type Presentation struct {
	Analysis   *Analysis
	Features   []Feature
	Codes      []string
	Residuals  []float64
	Owners     [][]int       // per feature column: the images that own it
	Thumbs     []image.Image // per image: its thumbnail
	Recon      []image.Image // per image: its reconstruction at thumbnail size
	CodeCounts []CodeCount   // distinct codes, most frequent first
}

// CodeCount is how many images share one binary code.
type CodeCount struct {
	Code  string
	Count int
}

// Present computes the presentation of an analysis.
func (a *Analysis) Present() *Presentation {
	p := &Presentation{
		Analysis:  a,
		Features:  a.Features(),
		Codes:     a.Codes(),
		Residuals: a.Residuals(),
	}
	p.Owners = make([][]int, a.Result.K)
	n, _ := a.Result.Z.Dims()
	for i := 0; i < n; i++ {
		for k, z := range a.Result.Z.RawRowView(i) {
			if z != 0 {
				p.Owners[k] = append(p.Owners[k], i)
			}
		}
	}
	p.Thumbs = Thumbnails(a.Data, ThumbnailSize)
	p.Recon = make([]image.Image, n)
	for i := range p.Recon {
		p.Recon[i] = Thumbnail(a.Reconstruction(i), ThumbnailSize)
	}
	p.CodeCounts = CountCodes(p.Codes)
	return p
}

// CountCodes counts the images per distinct code, most frequent first (ties by code).
func CountCodes(codes []string) []CodeCount {
	counts := map[string]int{}
	for _, c := range codes {
		counts[c]++
	}
	out := make([]CodeCount, 0, len(counts))
	for c, n := range counts {
		out = append(out, CodeCount{c, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Code < out[j].Code
	})
	return out
}
