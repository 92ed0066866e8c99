package views

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// LogEnv names the environment variable that sets the window's log level on stderr:
// "debug" adds where the main controls are on screen (the real-window test clicks them
// with xdotool); the default, "info", logs what the status bar says.
const LogEnv = "FEATURELAB_LOG"

func setUpLogging() {
	level := slog.LevelInfo
	switch strings.ToLower(os.Getenv(LogEnv)) {
	case "debug":
		level = slog.LevelDebug
	case "warn", "quiet":
		level = slog.LevelWarn
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
}

// processStart is close to when the process started: package variables are set before
// main runs.
var processStart = time.Now()

// logStarted records how long the window took to appear after the process started.
func logStarted() {
	slog.Info("window shown", "seconds", time.Since(processStart).Seconds())
}

// logMilestone records, at debug level, when something the user waits for appeared.
func logMilestone(what string, args ...any) {
	slog.Debug(what, append([]any{"since_start_s", time.Since(processStart).Seconds()}, args...)...)
}

// logControls logs the centre of each main control in window coordinates, at debug
// level; call on the UI goroutine once the window is laid out.
func (ui *UI) logControls() {
	if !slog.Default().Enabled(context.Background(), slog.LevelDebug) || ui.fyneApp.Driver() == nil {
		return
	}
	controls := []struct {
		name string
		obj  fyne.CanvasObject
	}{{"run", ui.run.runBtn}, {"cancel", ui.status.cancel}}
	for _, c := range controls {
		pos := ui.fyneApp.Driver().AbsolutePositionForObject(c.obj)
		size := c.obj.Size()
		slog.Debug("control", "name", c.name, "x", int(pos.X+size.Width/2), "y", int(pos.Y+size.Height/2))
	}
}

// latencyProbe measures how long work posted with fyne.Do waits for the UI goroutine:
// a job that blocked it, a flood of progress updates, or a slow frame shows up as a long
// wait. Only one probe is outstanding at a time: the UI loop takes one queued function
// between frames, so probes posted on a timer would queue behind each other whenever
// frames are slow (software rendering) and measure their own backlog. It runs only with
// FEATURELAB_LOG=debug.
type latencyProbe struct {
	mu      sync.Mutex
	max     time.Duration
	samples int
	slow    int // waits over one 60 Hz frame
}

const probeInterval = 10 * time.Millisecond

// startLatencyProbe posts a no-op to the UI goroutine, waits for it to run, and posts
// the next probeInterval later, until the app stops, timing each.
func startLatencyProbe() *latencyProbe {
	if !slog.Default().Enabled(context.Background(), slog.LevelDebug) {
		return nil
	}
	p := &latencyProbe{}
	go func() {
		for {
			posted := time.Now()
			fyne.DoAndWait(func() {
				wait := time.Since(posted)
				p.mu.Lock()
				p.samples++
				p.max = max(p.max, wait)
				if wait > time.Second/60 {
					p.slow++
				}
				p.mu.Unlock()
			})
			time.Sleep(probeInterval)
		}
	}()
	return p
}

// report logs the waits since the last report and starts afresh.
func (p *latencyProbe) report(what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	slog.Debug("ui latency", "during", what, "samples", p.samples, "max_ms", float64(p.max.Microseconds())/1000, "over_one_frame", p.slow)
	p.max, p.samples, p.slow = 0, 0, 0
}
