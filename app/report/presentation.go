package report

import (
	"context"
	"image"
	"sort"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/partition"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/imgproc"
)

// Presentation is everything the window shows about an analysis, computed once on the
// background job so the UI goroutine only lays it out.
type Presentation struct {
	Analysis *result.Analysis
	// Features are the base and the features in the order shown (RankFeatures); the
	// last Minor of them are minor features, folded away until asked for.
	Features   []result.Feature
	Minor      int
	Codes      []string
	Residuals  []float64
	Owners     [][]int       // per feature column: the images that own it
	Thumbs     []image.Image // per image: its thumbnail
	Recon      []image.Image // per image: its reconstruction at thumbnail size
	CodeCounts []CodeCount   // distinct codes, most frequent first
	// KNote says why the K chosen off the λ² path counts no objects, or "" (Analysis.KNote),
	// worked out here, in the background, for the Features tab to show.
	KNote string
	// NoObjects is set when the folder shows no objects that come and go
	// (Analysis.NoObjects): KNote says so, at the head of the Features tab.
	NoObjects bool
}

// CodeCount is how many images share one binary code.
type CodeCount struct {
	Code  string
	Count int
}

// Present computes the presentation of an analysis.
func Present(a *result.Analysis) *Presentation {
	p := &Presentation{
		Analysis:  a,
		Codes:     a.Codes(),
		Residuals: a.Residuals(),
	}
	p.Features, p.Minor = RankFeatures(a, a.Features())
	p.Owners = make([][]int, a.Result.K)
	n, _ := a.Result.Z.Dims()
	for i := 0; i < n; i++ {
		for k, z := range a.Result.Z.RawRowView(i) {
			if z != 0 {
				p.Owners[k] = append(p.Owners[k], i)
			}
		}
	}
	p.Thumbs = a.Prepared.Thumbnails()
	p.Recon = reconstructionThumbs(a, p.Codes)
	p.CodeCounts = CountCodes(p.Codes)
	p.KNote = a.KNote()
	p.NoObjects = a.NoObjects()
	return p
}

// reconstructionThumbs returns the reconstruction of each code at thumbnail size (the
// codes of a's images, or of new images coded with its features). Images
// that share a code share their reconstruction, so each distinct code is rendered once
// (a hundred images usually have a few dozen codes), a block of codes per pass over the
// PCA components shrunk to thumbnail size (ThumbnailPCA), on all cores.
func reconstructionThumbs(a *result.Analysis, codes []string) []image.Image {
	labels := partition.Number(codes) // distinct codes numbered in order of first appearance
	var firsts []int                  // an image of each distinct code
	for i, l := range labels {
		if int(l) == len(firsts) {
			firsts = append(firsts, i)
		}
	}
	const block = 16 // codes per pass: 16 images of pixels at a time
	model, size := a.ThumbnailPCA()
	if model == nil { // identity mode: the scores are the pixels
		model, size = a.PCA, image.Pt(a.Data.Width, a.Data.Height)
	}
	_, d := a.Result.A.Dims()
	rendered := make([]image.Image, len(firsts))
	for j0 := 0; j0 < len(firsts); j0 += block {
		rows := firsts[j0:min(j0+block, len(firsts))]
		S := mat.NewDense(len(rows), d, nil)
		for r, i := range rows {
			S.SetRow(r, a.ScoresOfCode(codes[i]))
		}
		pix := model.InverseDense(S)
		imgproc.Parallel(context.Background(), len(rows), 0, func(r int) {
			rendered[j0+r] = imgproc.Thumbnail(imgproc.VectorToImage(pix.RawRowView(r), size.X, size.Y, a.Data.Channels), pipeline.ThumbnailSize)
		})
	}
	out := make([]image.Image, len(codes))
	for i, l := range labels {
		out[i] = rendered[l]
	}
	return out
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

// Probabilities are image i's probabilities of owning each feature, in column order
// (learn.Result.ZProbability: the IBP's share of sweeps), or nil when the result has
// none or they do not match its Z.
func (p *Presentation) Probabilities(i int) []float64 {
	P, Z := p.Analysis.Result.ZProbability, p.Analysis.Result.Z
	if P == nil || P.IsEmpty() || Z == nil {
		return nil
	}
	if r, c := P.Dims(); r != len(p.Codes) || i < 0 || i >= r || c != p.Analysis.Result.K {
		return nil
	}
	return P.RawRowView(i)
}
