package app

import (
	"context"
	"fmt"
	"image"

	"featurelab/algorithms"
	"featurelab/app/budget"
	"featurelab/app/encoding"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/app/segmenting"
)

// The window's flows, each the whole of what one click starts, from the request to what
// the window shows: they run on a background job (jobs.Manager), report through
// progress, and hand back a presentation; the window only draws it.

// Preparer prepares the data set a request names, reporting its stages through progress
// and its pictures through preview as soon as they are read: pipeline.PrepareInStages,
// or a test's stand-in that shares prepared data between windows.
type Preparer func(ctx context.Context, req Request, progress func(Progress), preview func(names []string, thumbs []image.Image)) (*Prepared, error)

// Loaded is an opened data set and what the window starts from on it.
type Loaded struct {
	Prepared *Prepared
	// Lambda2 is the λ² proposed for algorithms.DefaultTargetK features.
	Lambda2 float64
	// Restored is the saved analysis asked for, put back on Prepared; RestoreErr says why
	// not when it could not be (another folder's, other pictures).
	Restored   *Presentation
	RestoreErr error
}

// Load opens the data set req asks for with prepare, proposes the λ² a run starts from,
// makes the thumbnails' PCA before the first result needs it, and, when restore is not
// nil, puts that saved analysis back on the data set (its learner does not run again).
func Load(ctx context.Context, prepare Preparer, req Request, progress func(Progress), preview func(names []string, thumbs []image.Image), restore *SavedAnalysis) (*Loaded, error) {
	prep, err := prepare(ctx, req, progress, preview)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Prepared: prep, Lambda2: prep.ProposeLambda2(algorithms.DefaultTargetK)}
	prep.ThumbnailPCA()
	if restore != nil {
		var a *Analysis
		if a, l.RestoreErr = restore.Restore(prep); l.RestoreErr == nil {
			l.Restored = report.Present(a)
		}
	}
	return l, nil
}

// Run runs alg with opt on the data set prep (on its scores, or on the description desc
// asks for) and presents the result.
func Run(ctx context.Context, prep *Prepared, alg *algorithms.Algorithm, desc Description, opt RunOptions, progress func(Progress)) (*Presentation, error) {
	a, err := result.RunOn(ctx, prep, alg, desc, opt, progress)
	if err != nil {
		return nil, err
	}
	return report.Present(a), nil
}

// RunSummary is a finished run in a line: its K, objective and time, and how its codes
// group the folder's subfolders when it has them.
func RunSummary(a *Analysis) string {
	msg := fmt.Sprintf("%s: K = %d, %s, in %.2f s", a.Algorithm.Title, a.Result.K, saved.ObjectiveText(a), a.Times.Algorithm)
	if fs, ok := a.FolderScores(); ok {
		msg += "; " + fs.String()
	}
	return msg
}

// OtherReading presents a in its other reading — the learner's own Z and A, or the
// readable form — without running again; its features' stability is checked again.
func OtherReading(a *Analysis) *Presentation {
	return report.Present(a.SwitchReading())
}

// PathAt presents the fit at K = k of a stepwise run's λ² path, which the run kept: no
// learner runs again, A is refitted in the readable form.
func PathAt(a *Analysis, k int) (*Presentation, error) {
	b, err := a.AtK(k)
	if err != nil {
		return nil, err
	}
	return report.Present(b), nil
}

// Apply codes the pictures of dir with the features of a (its encoder), within the memory
// the environment allows, and presents the coded folder.
func Apply(ctx context.Context, a *Analysis, dir string, progress func(Progress)) (*AppliedFolder, error) {
	e, err := encoding.FromAnalysis(a)
	if err != nil {
		return nil, err
	}
	env, err := budget.FromEnv()
	if err != nil {
		return nil, err
	}
	ap, err := e.Apply(ctx, dir, env, progress)
	if err != nil {
		return nil, err
	}
	return report.PresentApplied(a, e, ap), nil
}

// Segment segments one picture, img (read from path, which names it), and renders what
// the window shows of the segmentation.
func Segment(ctx context.Context, img image.Image, path string, opt SegmentOptions, progress func(Progress)) (*Segmentation, SegmentPictures, error) {
	seg := &segmenting.Segmentation{Path: path, Image: img}
	var err error
	if seg.Result, err = segmenting.Segment(ctx, img, opt, progress); err != nil {
		return nil, SegmentPictures{}, err
	}
	return seg, seg.Pictures(), nil
}
