package app

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/disintegration/imaging"

	"featurelab/algorithms/cosegment"
	"featurelab/imgproc"
)

// Cosegmentation is a folder of images segmented together (cosegment.Cosegment).
type Cosegmentation struct {
	Source Source
	Names  []string      // the images, as the loader names them
	Images []image.Image // at the working size the load chose
	Result *cosegment.Result
}

// Cosegment loads the images of src (at the load options' working size) and segments
// them together, reporting progress.
func Cosegment(ctx context.Context, src Source, load imgproc.Options, opt cosegment.Options, report func(Progress)) (*Cosegmentation, error) {
	tr := newTracker(report)
	if load.Memory == 0 {
		m, err := memoryBudget()
		if err != nil {
			return nil, err
		}
		load.Memory = m
	}
	load.Progress = func(done, total int) { tr.update("Loading images", done, total) }
	ds, err := src.Load(ctx, load)
	if err != nil {
		return nil, err
	}
	c := &Cosegmentation{Source: src, Names: ds.Names}
	for i := range ds.Names {
		c.Images = append(c.Images, ds.Image(i))
	}
	tr.update("Co-segmenting", 0, 0)
	if c.Result, err = cosegment.Cosegment(ctx, c.Images, opt); err != nil {
		return nil, err
	}
	return c, nil
}

// cosegmentColours are the colours of the global clusters in cosegments.png, the first
// twelve distinct, then again.
var cosegmentColours = []color.NRGBA{
	{230, 25, 75, 255}, {60, 180, 75, 255}, {0, 130, 200, 255}, {255, 225, 25, 255},
	{245, 130, 48, 255}, {145, 30, 180, 255}, {70, 240, 240, 255}, {240, 50, 230, 255},
	{210, 245, 60, 255}, {0, 128, 128, 255}, {170, 110, 40, 255}, {128, 128, 128, 255},
}

// ClusterColour is global cluster g's colour in cosegments.png and the window's view.
func ClusterColour(g int) color.NRGBA { return cosegmentColours[g%len(cosegmentColours)] }

// cosegmentTile is the largest side of an image's tile in cosegments.png.
const cosegmentTile = 200

// WriteOutputs writes, for every image, <dir>/<its name without extension>/labels.png
// (16-bit grey, pixel value = global cluster) and segments.png (every pixel in its
// global cluster's mean colour), and <dir>/cosegments.png: every image's clusters, side
// by side, each global cluster in its own colour (ClusterColour) everywhere.
func (c *Cosegmentation) WriteOutputs(dir string) error {
	r := c.Result
	for i, name := range c.Names {
		sub := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, path.Ext(name))))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for file, img := range map[string]image.Image{"labels.png": r.LabelImage(i), "segments.png": r.SegmentsImage(i)} {
			if err := writeAtomic(filepath.Join(sub, file), true, func(w io.Writer) error { return imgproc.EncodePNG(w, img) }); err != nil {
				return err
			}
		}
	}
	return writeAtomic(filepath.Join(dir, "cosegments.png"), true, func(w io.Writer) error { return imgproc.EncodePNG(w, c.Overview()) })
}

// Overview is cosegments.png: a grid of the images' cluster maps, each global cluster in
// its ClusterColour, each tile at most cosegmentTile pixels on a side.
func (c *Cosegmentation) Overview() image.Image {
	r := c.Result
	n := len(r.Labels)
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	const gap = 4
	tile := func(i int) image.Image {
		size := r.Sizes[i]
		img := r.ColourImage(i, ClusterColour)
		if size.X > cosegmentTile || size.Y > cosegmentTile {
			return imaging.Fit(img, cosegmentTile, cosegmentTile, imaging.NearestNeighbor)
		}
		return img
	}
	tiles := make([]image.Image, n)
	cw, ch := 1, 1
	for i := range tiles {
		tiles[i] = tile(i)
		cw, ch = max(cw, tiles[i].Bounds().Dx()), max(ch, tiles[i].Bounds().Dy())
	}
	out := image.NewNRGBA(image.Rect(0, 0, cols*(cw+gap)+gap, rows*(ch+gap)+gap))
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	for i, t := range tiles {
		at := image.Pt(gap+(i%cols)*(cw+gap), gap+(i/cols)*(ch+gap))
		draw.Draw(out, t.Bounds().Add(at), t, t.Bounds().Min, draw.Src)
	}
	return out
}

// CosegmentSummary is the JSON `featurelab cosegment --json` prints.
type CosegmentSummary struct {
	Source         string   `json:"source"`
	NImages        int      `json:"n_images"`
	Names          []string `json:"names"`
	GlobalClusters int      `json:"global_clusters"`
	LocalClusters  []int    `json:"local_clusters"` // per image, in load order
	ImagesUsing    []int    `json:"images_using"`   // per global cluster
	MeanColours    [][3]int `json:"mean_colours"`   // per global cluster, sRGB 0…255
	Objective      float64  `json:"objective"`
	Penalised      float64  `json:"penalised_objective"`
	LambdaLocal    float64  `json:"lambda_local"`
	LambdaGlobal   float64  `json:"lambda_global"`
	Iterations     int      `json:"iterations"`
	Seconds        float64  `json:"seconds"`
}

// Summary is the co-segmentation's JSON summary.
func (c *Cosegmentation) Summary() CosegmentSummary {
	r := c.Result
	s := CosegmentSummary{Source: c.Source.String(), NImages: len(c.Names), Names: c.Names,
		GlobalClusters: r.K, LocalClusters: r.Local, ImagesUsing: r.Images,
		Objective: r.Objective, Penalised: r.Penalised, LambdaLocal: r.LambdaLocal, LambdaGlobal: r.LambdaGlobal,
		Iterations: r.Iterations, Seconds: r.Seconds}
	for g := range r.Means {
		c := r.MeanColour(g)
		s.MeanColours = append(s.MeanColours, [3]int{int(c.R), int(c.G), int(c.B)})
	}
	return s
}

// Text is the one-line report of the command line: "12 images, 7 global clusters, …".
func (c *Cosegmentation) Text() string {
	r := c.Result
	return fmt.Sprintf("%d images, %d global clusters (λ_bottom %.3g, λ_top %.3g), objective %.6g, in %.2f s",
		len(c.Names), r.K, r.LambdaLocal, r.LambdaGlobal, r.Penalised, r.Seconds)
}
