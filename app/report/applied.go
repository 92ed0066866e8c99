package report

import (
	"fmt"
	"image"
	"slices"

	"featurelab/app/encoding"
	"featurelab/app/pipeline"
	"featurelab/app/result"
)

// AppliedFolder is what the window shows of a folder coded with the features of a shown
// analysis (File → Apply analysis to folder…), computed once on the background job: the
// new images' codes, residuals and marks, which of them own each feature, and their
// thumbnails and reconstructions. Image i is the folder's i-th (natural order).
type AppliedFolder struct {
	Analysis *result.Analysis // the analysis whose features coded the folder
	Applied  *encoding.Applied
	// Limit is the residual above which an image is unexplained (encoding.Encoder.Limit).
	Limit float64
	Base  int // the base feature, kept on for every image, or −1
	Names []string
	Codes []string
	// Owners are, per feature column, the new images that own it.
	Owners     [][]int
	Thumbs     []image.Image
	Recon      []image.Image // each image's code rebuilt, at thumbnail size
	CodeCounts []CodeCount
}

// PresentApplied computes the presentation of a folder ap coded with e, the encoder of
// a.
func PresentApplied(a *result.Analysis, e *encoding.Encoder, ap *encoding.Applied) *AppliedFolder {
	f := &AppliedFolder{Analysis: a, Applied: ap, Limit: e.Limit, Base: e.Base, Owners: make([][]int, e.K)}
	for i, c := range ap.Codes {
		f.Names = append(f.Names, c.Name)
		f.Codes = append(f.Codes, c.Code)
		for k := 0; k < len(c.Code) && k < e.K; k++ {
			if c.Code[k] == '1' {
				f.Owners[k] = append(f.Owners[k], i)
			}
		}
	}
	f.Thumbs = pipeline.Thumbnails(ap.Data)
	f.Recon = reconstructionThumbs(a, f.Codes)
	f.CodeCounts = CountCodes(f.Codes)
	return f
}

// Order is the order to list the images in: with unexplainedFirst, the unexplained
// first, the largest residual first, then the others in the folder's order; else the
// folder's order.
func (f *AppliedFolder) Order(unexplainedFirst bool) []int {
	order := make([]int, len(f.Codes))
	for i := range order {
		order[i] = i
	}
	if unexplainedFirst {
		slices.SortStableFunc(order, func(i, j int) int {
			ci, cj := f.Applied.Codes[i], f.Applied.Codes[j]
			switch {
			case ci.Unexplained != cj.Unexplained:
				if ci.Unexplained {
					return -1
				}
				return 1
			case ci.Unexplained && ci.Residual != cj.Residual:
				if ci.Residual > cj.Residual {
					return -1
				}
				return 1
			}
			return 0
		})
	}
	return order
}

// Code is image i's encoding.
func (f *AppliedFolder) Code(i int) encoding.Code { return f.Applied.Codes[i] }

// Probabilities are image i's probabilities of owning each feature (an IBP analysis'),
// or nil.
func (f *AppliedFolder) Probabilities(i int) []float64 {
	if i < 0 || i >= len(f.Applied.Codes) {
		return nil
	}
	return f.Applied.Codes[i].Probability
}

// Image is image i at the analysis's working size.
func (f *AppliedFolder) Image(i int) image.Image { return f.Applied.Data.Image(i) }

// Reconstruction is image i's code rebuilt at the analysis's working size.
func (f *AppliedFolder) Reconstruction(i int) image.Image {
	if i < 0 || i >= len(f.Codes) {
		return image.NewGray(image.Rectangle{})
	}
	return f.Analysis.CodeReconstruction(f.Codes[i])
}

// Summary says what was coded: "12 images of DIR coded with the 5 features; 2 not
// explained by them (residual above 0.0014, the training images' 99th percentile)".
func (f *AppliedFolder) Summary() string {
	return fmt.Sprintf("%s of %s coded with the %d features; %d not explained by them (residual above %.3g, the training images' %.0fth percentile)",
		CountText(len(f.Codes), "image"), f.Applied.Dir, len(f.Owners), f.Applied.Unexplained, f.Limit, 100*encoding.UnexplainedQuantile)
}

// ResidualText words image i's residual against the limit: "residual 0.12, above the
// limit 0.0014: not explained by the features" or "residual 0.0009 (limit 0.0014)".
func (f *AppliedFolder) ResidualText(i int) string {
	c := f.Applied.Codes[i]
	if c.Unexplained {
		return fmt.Sprintf("residual %.3g, above the limit %.3g: not explained by the features", c.Residual, f.Limit)
	}
	return fmt.Sprintf("residual %.3g (limit %.3g)", c.Residual, f.Limit)
}

// CountText is "1 image" or "n images", for what = "image".
func CountText(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
