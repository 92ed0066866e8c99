package segmenting

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/disintegration/imaging"

	"featurelab/algorithms/cosegment"
	"featurelab/app/budget"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Cosegmentation is a folder of images segmented together (cosegment.Cosegment).
type Cosegmentation struct {
	Source pipeline.Source
	Names  []string // the images, as the loader names them
	Result *cosegment.Result
	data   *imgproc.Dataset // the images at the working size the load chose
}

// Cosegment loads the images of src (at the load options' working size) and segments
// them together, reporting progress.
//
// out, when not empty, is the folder the results will be written to (WriteOutputs): it is
// checked for every image's folder (CheckOutputsFor) as soon as the images are loaded,
// before the co-segmentation, so that a refusal costs no work.
func Cosegment(ctx context.Context, src pipeline.Source, load imgproc.Options, opt cosegment.Options, out string, report func(jobs.Progress)) (*Cosegmentation, error) {
	tr := jobs.NewTracker(report)
	if load.Memory == 0 {
		m, err := cosegmentBudget()
		if err != nil {
			return nil, err
		}
		load.Memory = m
	}
	// The load counts the co-segmentation's memory with the pixels, so a folder that
	// cannot be co-segmented is refused before its data matrix is made, with a size
	// tried against the same estimate, or larger cells.
	load.NoGray = true
	load.RunMemory = func(n int, size image.Point, channels int) (int64, string, string) {
		hint := ""
		if cell := fittingCell(n, size, channels, load.Memory, opt); cell > 0 {
			hint = fmt.Sprintf("in cells of %d or larger (--cell)", cell)
		}
		return cosegment.Memory(n, size.X, size.Y, opt), "for the co-segmentation", hint
	}
	load.Progress = func(lp imgproc.LoadProgress) {
		tr.UpdateWork("Loading images", lp.Done, lp.Total, lp.Bytes, lp.TotalBytes)
	}
	ds, err := src.Load(ctx, load)
	if err != nil {
		return nil, err
	}
	if out != "" {
		if err := CheckOutputsFor(out, ds.Names); err != nil {
			return nil, err
		}
	}
	return cosegmentData(ctx, src, ds, opt, tr)
}

// CosegmentLoaded segments together the images of a data set already loaded, at its
// working size, without reading the folder again.
func CosegmentLoaded(ctx context.Context, p *pipeline.Prepared, opt cosegment.Options, report func(jobs.Progress)) (*Cosegmentation, error) {
	return cosegmentData(ctx, p.Source, p.Data, opt, jobs.NewTracker(report))
}

func cosegmentData(ctx context.Context, src pipeline.Source, ds *imgproc.Dataset, opt cosegment.Options, tr *jobs.Tracker) (*Cosegmentation, error) {
	if err := cosegmentFits(ds, opt); err != nil {
		return nil, err
	}
	c := &Cosegmentation{Source: src, Names: ds.Names, data: ds}
	tr.Update("Co-segmenting", 0, 0)
	opt.Report = tr.Update // the Tracker reports under its own lock
	var err error
	if c.Result, err = cosegment.Cosegment(ctx, datasetImages{ds}, opt); err != nil {
		return nil, err
	}
	return c, nil
}

// cosegmentBudget is the memory a co-segmentation and its images may take:
// FEATURELAB_MEMORY, else half the free memory.
func cosegmentBudget() (int64, error) {
	budget, err := budget.FromEnv()
	if err != nil || budget > 0 {
		return budget, err
	}
	return imgproc.MemoryBudget(), nil
}

// cosegmentNeed is what co-segmenting n images of size in so many channels takes with
// opt: their data matrix and the co-segmentation's own memory (cosegment.Memory).
func cosegmentNeed(n int, size image.Point, channels int, opt cosegment.Options) int64 {
	return imgproc.DataBytes(n, size.X*size.Y*channels) + cosegment.Memory(n, size.X, size.Y, opt)
}

// fittingCell is the smallest cell, larger than opt's, in which co-segmenting n images
// of size fits budget, or 0 when even one cell per image does not. Larger cells never
// need more (an image has no more cells), so any larger one fits too.
func fittingCell(n int, size image.Point, channels int, budget int64, opt cosegment.Options) int {
	cell := cmp.Or(max(opt.Cell, 0), cosegment.DefaultCell)
	for c := cell + 1; c <= max(size.X, size.Y); c++ {
		o := opt
		o.Cell = c
		if cosegmentNeed(n, size, channels, o) <= budget {
			return c
		}
	}
	return 0
}

// cosegmentFits refuses, in one line, a co-segmentation of ds that would take more than
// the memory budget (FEATURELAB_MEMORY, else half the free memory) leaves beside the
// loaded images. What it advises — larger cells, a smaller size — is tried against the
// same estimate first; where nothing fits it says fewer images or more memory.
func cosegmentFits(ds *imgproc.Dataset, opt cosegment.Options) error {
	budget, err := cosegmentBudget()
	if err != nil {
		return err
	}
	n, size := len(ds.Names), image.Pt(ds.Width, ds.Height)
	room := budget - imgproc.DataBytes(n, ds.Values())
	need := cosegment.Memory(n, ds.Width, ds.Height, opt)
	if need <= room {
		return nil
	}
	var ways []string
	if cell := fittingCell(n, size, ds.Channels, budget, opt); cell > 0 {
		ways = append(ways, fmt.Sprintf("use cells of %d or larger (--cell)", cell))
	}
	if s, andSmaller, ok := imgproc.FittingSize(size, func(s image.Point) bool { return cosegmentNeed(n, s, ds.Channels, opt) <= budget }); ok {
		smaller := ""
		if andSmaller {
			smaller = " or smaller"
		}
		ways = append(ways, fmt.Sprintf("load them at %dx%d%s (--size, the Dataset panel's Size)", s.X, s.Y, smaller))
	}
	if len(ways) == 0 {
		ways = append(ways, "use fewer images, or give it more memory (FEATURELAB_MEMORY)")
	}
	return fmt.Errorf("co-segmenting %d images of %d×%d in cells of %d needs %s, more than the %s there is room for: %s",
		n, ds.Width, ds.Height, cmp.Or(max(opt.Cell, 0), cosegment.DefaultCell), imgproc.BytesText(need), imgproc.BytesText(max(room, 0)), strings.Join(ways, " or "))
}

// datasetImages are a data set's images for cosegment.Cosegment, each made from its row
// of pixels when asked for.
type datasetImages struct{ ds *imgproc.Dataset }

func (d datasetImages) Len() int                { return len(d.ds.Names) }
func (d datasetImages) Image(i int) image.Image { return d.ds.Image(i) }

// Image is image i at the working size.
func (c *Cosegmentation) Image(i int) image.Image { return c.data.Image(i) }

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

// WriteOutputs writes, for every image, <dir>/<its folder>/labels.png (OutputFolders: its
// name without the extension, unless that repeats)
// (16-bit grey, pixel value = global cluster) and segments.png (every pixel in its
// global cluster's mean colour), and <dir>/cosegments.png: every image's clusters, side
// by side, each global cluster in its own colour (ClusterColour) everywhere. It replaces
// only pictures Feature Lab wrote, and checks them all before it writes any
// (CheckOutputs).
func (c *Cosegmentation) WriteOutputs(dir string) error {
	if err := c.CheckOutputs(dir); err != nil {
		return err
	}
	r := c.Result
	for i, folder := range OutputFolders(c.Names) {
		sub := filepath.Join(dir, filepath.FromSlash(folder))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for file, img := range map[string]image.Image{LabelsFile: r.LabelImage(i), SegmentsFile: r.SegmentsImage(i)} {
			if err := atomicfile.WriteOver(filepath.Join(sub, file), imgproc.IsOwnPNG, func(w io.Writer) error { return imgproc.EncodePNG(w, img) }); err != nil {
				return err
			}
		}
	}
	return atomicfile.WriteOver(filepath.Join(dir, cosegmentsFile), imgproc.IsOwnPNG, func(w io.Writer) error { return imgproc.EncodePNG(w, c.Overview()) })
}

// CheckOutputsFolder says why a co-segmentation could not be written into dir, before it
// is run: dir is a file, or its cosegments.png is not a picture Feature Lab wrote.
func CheckOutputsFolder(dir string) error {
	return atomicfile.CheckFolder(dir, ownPictures(cosegmentsFile))
}

// CheckOutputs says why WriteOutputs could not write into dir (CheckOutputsFor).
func (c *Cosegmentation) CheckOutputs(dir string) error { return CheckOutputsFor(dir, c.Names) }

// CheckOutputsFor says why the co-segmentation of the images names could not be written
// into dir: CheckOutputsFolder, or an image's folder that is a file or holds a labels.png
// or segments.png Feature Lab did not write — an input picture, when dir is the folder of
// the images.
func CheckOutputsFor(dir string, names []string) error {
	if err := CheckOutputsFolder(dir); err != nil {
		return err
	}
	each := ownPictures(LabelsFile, SegmentsFile)
	for _, folder := range OutputFolders(names) {
		if err := atomicfile.CheckFolder(filepath.Join(dir, filepath.FromSlash(folder)), each); err != nil {
			return err
		}
	}
	return nil
}

// cosegmentsFile is the overview WriteOutputs writes beside the images' folders.
const cosegmentsFile = "cosegments.png"

// OutputFolders names each image's output folder, relative to the output folder and
// slash-separated: its name without the extension ("sub/a" for "sub/a.jpg"), or with it
// where that would be another image's folder too (a.png and a.jpg) or the overview's
// file (an image named cosegments.png.png), and numbered if even that repeats — so no
// image's results replace another's, and nothing fails after the work is done.
func OutputFolders(names []string) []string {
	out := make([]string, len(names))
	count := map[string]int{}
	for i, name := range names {
		out[i] = strings.TrimSuffix(name, path.Ext(name))
		count[out[i]]++
	}
	taken := map[string]bool{cosegmentsFile: true}
	for i, name := range names {
		if count[out[i]] > 1 || taken[out[i]] || out[i] == "" {
			out[i] = name
		}
		for n, base := 2, out[i]; taken[out[i]]; n++ {
			out[i] = fmt.Sprintf("%s-%d", base, n)
		}
		taken[out[i]] = true
	}
	return out
}

// ExistingOutputs names what WriteOutputs would replace in dir: cosegments.png, and the
// images' folders that already hold a labels.png or segments.png.
func (c *Cosegmentation) ExistingOutputs(dir string) []string {
	var found []string
	exists := func(p string) bool { _, err := os.Stat(p); return !errors.Is(err, fs.ErrNotExist) }
	if exists(filepath.Join(dir, cosegmentsFile)) {
		found = append(found, cosegmentsFile)
	}
	n := 0
	for _, folder := range OutputFolders(c.Names) {
		sub := filepath.Join(dir, filepath.FromSlash(folder))
		if exists(filepath.Join(sub, "labels.png")) || exists(filepath.Join(sub, "segments.png")) {
			n++
		}
	}
	switch {
	case n == 1:
		found = append(found, "an image's labels.png or segments.png")
	case n > 1:
		found = append(found, fmt.Sprintf("%d images' labels.png or segments.png", n))
	}
	return found
}

// Overview is cosegments.png: a grid of the images' cluster maps, each global cluster in
// its ClusterColour, each tile at most cosegmentTile pixels on a side.
func (c *Cosegmentation) Overview() image.Image {
	r := c.Result
	n := len(r.Sizes)
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
	clusters := "global clusters"
	if r.K == 1 {
		clusters = "global cluster"
	}
	return fmt.Sprintf("%d images, %d %s (segment price %.3g, cluster price %.3g), objective %.6g, in %.2f s",
		len(c.Names), r.K, clusters, r.LambdaLocal, r.LambdaGlobal, r.Penalised, r.Seconds)
}

// ClusterLegend is one global cluster of a co-segmentation as the legend lists it.
type ClusterLegend struct {
	Cluster int
	Colour  color.NRGBA // its colour in the view and in cosegments.png
	Mean    color.NRGBA // the mean colour of its pixels
	Images  int         // how many images use it
	Share   float64     // its share of all the pixels, in [0, 1]
}

// Legend lists the global clusters, the largest first.
func (c *Cosegmentation) Legend() []ClusterLegend {
	r := c.Result
	var total int
	for _, p := range r.Pixels {
		total += p
	}
	out := make([]ClusterLegend, r.K)
	for g := range out {
		out[g] = ClusterLegend{Cluster: g, Colour: ClusterColour(g), Mean: r.MeanColour(g), Images: r.Images[g],
			Share: float64(r.Pixels[g]) / float64(max(total, 1))}
	}
	slices.SortStableFunc(out, func(a, b ClusterLegend) int { return cmp.Compare(b.Share, a.Share) })
	return out
}

// Tile is image i as the Co-segmentation view shows it, at most side pixels on a side
// (0: its working size): every pixel in its global cluster's colour, or, with highlight
// ≥ 0, the picture itself in dimmed grey with the pixels of cluster highlight in its
// colour, so one stuff can be followed across the folder.
func (c *Cosegmentation) Tile(i, highlight, side int) image.Image {
	r := c.Result
	var img *image.NRGBA
	if highlight < 0 {
		img = r.ColourImage(i, ClusterColour)
	} else {
		labels := r.Labels(i)
		pic := imaging.Clone(c.Image(i)) // NRGBA, on white as loaded
		mark := ClusterColour(highlight)
		for n, g := range labels {
			px := pic.Pix[4*n : 4*n+4]
			if int(g) == highlight {
				px[0], px[1], px[2], px[3] = mark.R, mark.G, mark.B, 255
				continue
			}
			// Rec. 601 luma, at 60 %: the rest of the picture stays readable behind the mark.
			y := uint8((299*uint32(px[0]) + 587*uint32(px[1]) + 114*uint32(px[2])) * 6 / 10000)
			px[0], px[1], px[2], px[3] = y, y, y, 255
		}
		img = pic
	}
	if b := img.Bounds(); side > 0 && (b.Dx() > side || b.Dy() > side) {
		return imaging.Fit(img, side, side, imaging.NearestNeighbor)
	}
	return img
}
