package app

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
func Evaluate(ctx context.Context, req EvalRequest, report func(Progress)) (*EvalReport, error) {
	tr := newTracker(report)
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
		tr.update("Segmenting and scoring", i, len(ids))
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
	var labels []int32
	var w, h int
	if req.LabelsDir != "" {
		m, err := imgproc.ReadLabelMap(filepath.Join(req.LabelsDir, id+".png"))
		if err != nil {
			return s, err
		}
		labels, w, h = m.Labels, m.Width, m.Height
	} else {
		img, err := LoadImage(filepath.Join(req.ImagesDir, file))
		if err != nil {
			return s, err
		}
		start := time.Now()
		res, err := segment.Segment(ctx, img, req.Options)
		if err != nil {
			return s, err
		}
		s.Seconds = time.Since(start).Seconds()
		labels, w, h = res.Labels, res.Width, res.Height
	}
	if err := scoreLabels(&s, req.TruthDir, truths, labels, w, h); err != nil {
		return s, err
	}
	return s, nil
}

// scoreLabels fills s with the scores of a w×h label map against the human maps truths
// of dir.
func scoreLabels(s *EvalScore, dir string, truths []string, labels []int32, w, h int) error {
	maps := make([][]int32, len(truths))
	for k, t := range truths {
		m, err := imgproc.ReadLabelMap(filepath.Join(dir, t))
		if err != nil {
			return err
		}
		if m.Width != w || m.Height != h {
			return fmt.Errorf("the segmentation is %d×%d, the human one %s %d×%d", w, h, t, m.Width, m.Height)
		}
		maps[k] = m.Labels
	}
	s.Truths = len(truths)
	s.PRI = partition.ProbabilisticRandIndex(labels, maps)
	for _, m := range maps {
		s.VoINats += partition.VariationOfInformation(labels, m)
	}
	s.VoINats /= float64(len(maps))
	s.VoIBits = s.VoINats / math.Ln2
	s.Segments = float64(segment.Segments(labels))
	return nil
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
	score := &EvalScore{ID: id, Seconds: s.Result.Seconds}
	if err := scoreLabels(score, truthDir, index[id], s.Result.Labels, s.Result.Width, s.Result.Height); err != nil {
		return nil, err
	}
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
