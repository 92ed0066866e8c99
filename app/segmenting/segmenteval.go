package segmenting

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"featurelab/algorithms/partition"
	"featurelab/algorithms/segment"
	"featurelab/app/jobs"
	"featurelab/imgproc"
)

// EvalScore is a segmentation's agreement with the human segmentations of its image:
// the probabilistic Rand index (higher is better, humans score about 0.87 against each
// other on BSDS500) and the variation of information, the mean over the human maps, in
// bits and in nats (lower is better).
type EvalScore struct {
	ID       string  `json:"id"`
	PRI      float64 `json:"pri"`
	VoIBits  float64 `json:"voi_bits"`
	VoINats  float64 `json:"voi_nats"`
	Segments float64 `json:"segments"` // the segmentation's (a mean, in EvalReport.Mean)
	Truths   int     `json:"truths"`   // human segmentations scored against
	Seconds  float64 `json:"seconds"`  // to segment it; 0 for label maps given
	// Bound is the KPYP's final variational bound (nats), so runs with different seeds
	// can be compared by it; 0 for the other methods and for label maps given.
	Bound float64 `json:"bound,omitempty"`
}

// EvalReport is a whole folder's evaluation: every image's score and their mean.
type EvalReport struct {
	Method  string         `json:"method"` // the segmenter, or "labels" for given label maps
	Images  []EvalScore    `json:"images"`
	Mean    EvalScore      `json:"mean"`
	Skipped []imgproc.Skip `json:"skipped"` // images without a human segmentation, or that failed
}

// EvalRequest says what to evaluate: the photos, their human segmentations
// (TruthDir/<id>_<k>.png), and either a segmenter's options or a folder of label maps
// made by another method (LabelsDir/<id>.png), scored the same way.
type EvalRequest struct {
	ImagesDir, TruthDir string
	Options             segment.Options
	LabelsDir           string // when set, these label maps are scored instead of segmenting
}

// Evaluate segments every photo of req.ImagesDir (or reads its label map) and scores it
// against each human segmentation of it, one photo at a time, reporting progress.
func Evaluate(ctx context.Context, req EvalRequest, report func(jobs.Progress)) (*EvalReport, error) {
	tr := jobs.NewTracker(report)
	ids, files, err := evalImages(req.ImagesDir)
	if err != nil {
		return nil, err
	}
	truthNames, err := truthIndex(req.TruthDir)
	if err != nil {
		return nil, err
	}
	method := cmp.Or(req.Options.Method, segment.MethodKPYP)
	if req.LabelsDir != "" {
		method = "labels"
	}
	rep := &EvalReport{Method: method, Images: []EvalScore{}, Skipped: []imgproc.Skip{}}
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tr.Update("Segmenting and scoring", i, len(ids))
		s, err := evalOne(ctx, req, id, files[i], truthNames[id])
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			rep.Skipped = append(rep.Skipped, imgproc.Skip{Path: files[i], Reason: err.Error()})
			continue
		}
		rep.Images = append(rep.Images, s)
	}
	if len(rep.Images) == 0 {
		if n := len(rep.Skipped); n > 0 && len(truthNames) > 0 {
			// Human maps exist but none could be used: say why, not that they are missing.
			more := ""
			if n > 1 {
				more = fmt.Sprintf(" (and %d more skipped)", n-1)
			}
			return nil, fmt.Errorf("segment-eval: no photo of %s could be scored: %s: %s%s",
				req.ImagesDir, rep.Skipped[0].Path, rep.Skipped[0].Reason, more)
		}
		return nil, fmt.Errorf("segment-eval: no photo of %s has a human segmentation in %s (named <id>_<k>.png)", req.ImagesDir, req.TruthDir)
	}
	rep.Mean = meanScore(rep.Images)
	return rep, nil
}

// evalOne scores one photo.
func evalOne(ctx context.Context, req EvalRequest, id, file string, truths []string) (EvalScore, error) {
	s := EvalScore{ID: id, Truths: len(truths)}
	if len(truths) == 0 {
		return s, fmt.Errorf("no human segmentation (%s_<k>.png) in %s", id, req.TruthDir)
	}
	// The human maps are read first so that a photo of another size is refused before it
	// is segmented.
	maps, tw, th, err := readTruths(req.TruthDir, truths)
	if err != nil {
		return s, err
	}
	var labels []int32
	if req.LabelsDir != "" {
		m, err := imgproc.ReadLabelMap(filepath.Join(req.LabelsDir, id+".png"))
		if err != nil {
			return s, err
		}
		if err := sameSize("the label map", m.Width, m.Height, tw, th); err != nil {
			return s, err
		}
		labels = m.Labels
	} else {
		img, err := LoadImage(filepath.Join(req.ImagesDir, file))
		if err != nil {
			return s, err
		}
		if err := sameSize("the photo", img.Bounds().Dx(), img.Bounds().Dy(), tw, th); err != nil {
			return s, err
		}
		start := time.Now()
		res, err := segment.Segment(ctx, img, req.Options)
		if err != nil {
			return s, err
		}
		s.Seconds = time.Since(start).Seconds()
		if cmp.Or(req.Options.Method, segment.MethodKPYP) == segment.MethodKPYP && len(res.Bound) > 0 {
			s.Bound = res.Bound[len(res.Bound)-1]
		}
		labels = res.Labels
	}
	scoreLabels(&s, maps, labels)
	return s, nil
}

// readTruths reads the human maps truths of dir, which must all be one size, w×h.
func readTruths(dir string, truths []string) (maps [][]int32, w, h int, err error) {
	maps = make([][]int32, len(truths))
	for k, t := range truths {
		m, err := imgproc.ReadLabelMap(filepath.Join(dir, t))
		if err != nil {
			return nil, 0, 0, err
		}
		if k == 0 {
			w, h = m.Width, m.Height
		} else if m.Width != w || m.Height != h {
			return nil, 0, 0, fmt.Errorf("human segmentation %s is %d×%d, %s %d×%d", t, m.Width, m.Height, truths[0], w, h)
		}
		maps[k] = m.Labels
	}
	return maps, w, h, nil
}

// sameSize says why what, w×h, cannot be scored against human maps of tw×th; nil when
// the sizes agree.
func sameSize(what string, w, h, tw, th int) error {
	if w == tw && h == th {
		return nil
	}
	return fmt.Errorf("%s is %d×%d, its human segmentations %d×%d", what, w, h, tw, th)
}

// scoreLabels fills s with the scores of a label map against human maps of its size.
func scoreLabels(s *EvalScore, maps [][]int32, labels []int32) {
	s.Truths = len(maps)
	s.PRI = partition.ProbabilisticRandIndex(labels, maps)
	for _, m := range maps {
		s.VoINats += partition.VariationOfInformation(labels, m)
	}
	s.VoINats /= float64(len(maps))
	s.VoIBits = s.VoINats / math.Ln2
	s.Segments = float64(segment.Segments(labels))
}

// ScoreAgainst scores a segmentation of the photo at imagePath against its human
// segmentations in truthDir (<id>_<k>.png, id the photo's name without extension), as
// segment-eval does; nil, nil when there are none for it.
func (s *Segmentation) ScoreAgainst(truthDir string) (*EvalScore, error) {
	id := strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
	index, err := truthIndex(truthDir)
	if err != nil || len(index[id]) == 0 {
		return nil, err
	}
	maps, w, h, err := readTruths(truthDir, index[id])
	if err != nil {
		return nil, err
	}
	if err := sameSize("the segmentation", s.Result.Width, s.Result.Height, w, h); err != nil {
		return nil, err
	}
	score := &EvalScore{ID: id, Seconds: s.Result.Seconds}
	scoreLabels(score, maps, s.Result.Labels)
	return score, nil
}

// evalImages lists the photos of dir (its files that are images by their extension),
// in natural order, with their ids: the file names without the extension.
func evalImages(dir string) (ids, files []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("segment-eval: %w", err)
	}
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !slices.Contains([]string{".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".ppm", ".pgm"}, ext) {
			continue
		}
		files = append(files, e.Name())
	}
	slices.SortFunc(files, imgproc.NaturalOrder)
	for _, f := range files {
		ids = append(ids, strings.TrimSuffix(f, filepath.Ext(f)))
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("segment-eval: no photos in %s", dir)
	}
	return ids, files, nil
}

// truthIndex maps each id to its human segmentations in dir, <id>_<k>.png, in order of k.
func truthIndex(dir string) (map[string][]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("segment-eval: %w", err)
	}
	byID := map[string][]string{}
	for _, e := range entries {
		name := e.Name()
		stem, ok := strings.CutSuffix(name, ".png")
		i := strings.LastIndexByte(stem, '_')
		if !ok || i < 1 {
			continue
		}
		if _, err := strconv.Atoi(stem[i+1:]); err != nil {
			continue
		}
		byID[stem[:i]] = append(byID[stem[:i]], name)
	}
	for _, names := range byID {
		slices.SortFunc(names, imgproc.NaturalOrder)
	}
	return byID, nil
}

// meanScore is the mean of every figure over the images.
func meanScore(scores []EvalScore) EvalScore {
	m := EvalScore{ID: fmt.Sprintf("mean of %d", len(scores))}
	for _, s := range scores {
		m.PRI += s.PRI
		m.VoIBits += s.VoIBits
		m.VoINats += s.VoINats
		m.Segments += s.Segments
		m.Truths += s.Truths
		m.Seconds += s.Seconds
	}
	n := float64(len(scores))
	m.PRI, m.VoIBits, m.VoINats, m.Segments, m.Seconds = m.PRI/n, m.VoIBits/n, m.VoINats/n, m.Segments/n, m.Seconds/n
	return m
}
