package encoding

import (
	"context"
	"time"

	"featurelab/app/jobs"
	"featurelab/imgproc"
)

// Applied is a folder coded with an Encoder: its images at the analysis's working size
// and their codes, with the seconds each part took.
type Applied struct {
	Dir   string
	Data  *imgproc.Dataset
	Codes []Code
	// Unexplained counts the codes flagged unexplained.
	Unexplained          int
	LoadSecs, EncodeSecs float64
}

// Stages Apply reports.
const (
	StageLoad   = "Loading images"
	StageEncode = "Encoding"
)

// LoadOptions are the options that load new images as the analysis's were: at its
// working size and in its colour (a grey photo is read as colour for a colour analysis,
// a colour one as grey for a grey analysis), within memory bytes (0: the loader's
// default). One picture is enough.
func (e *Encoder) LoadOptions(memory int64) imgproc.Options {
	opt := imgproc.Options{Width: e.Width, Height: e.Height, Color: imgproc.ColorRGB, Memory: memory, One: true}
	if e.Channels == 1 {
		opt.Color = imgproc.ColorGray
	}
	return opt
}

// Apply loads the images of dir with LoadOptions and codes them, reporting progress to
// report (nil: none; throttled as jobs.Tracker does, and called from the loader's
// goroutines too). It stops when ctx is cancelled. A folder with no usable image is the
// loader's one-line error.
func (e *Encoder) Apply(ctx context.Context, dir string, memory int64, report func(jobs.Progress)) (*Applied, error) {
	opt := e.LoadOptions(memory)
	var progress func(done, total int)
	if report != nil {
		tr := jobs.NewTracker(report)
		opt.Progress = func(lp imgproc.LoadProgress) { tr.Update(StageLoad, lp.Done, lp.Total) }
		progress = func(done, total int) { tr.Update(StageEncode, done, total) }
	}
	began := time.Now()
	ds, err := imgproc.Load(ctx, dir, opt)
	if err != nil {
		return nil, err
	}
	loaded := time.Now()
	codes, err := e.Encode(ctx, ds, progress)
	if err != nil {
		return nil, err
	}
	ap := &Applied{Dir: dir, Data: ds, Codes: codes, LoadSecs: loaded.Sub(began).Seconds(), EncodeSecs: time.Since(loaded).Seconds()}
	for _, c := range codes {
		if c.Unexplained {
			ap.Unexplained++
		}
	}
	return ap, nil
}
