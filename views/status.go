package views

import (
	"log/slog"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// statusBar shows what the running job is doing, a progress bar and a Cancel button.
type statusBar struct {
	label    *widget.Label
	bar      *widget.ProgressBar
	infinite *widget.ProgressBarInfinite
	cancel   *widget.Button
	box      *fyne.Container
	probe    *latencyProbe // nil unless FEATURELAB_LOG=debug
	job      string        // what the running job is doing; "" when idle

	// animateAfter delays the animated bar of a stage that has no counts (opening a data
	// set, an algorithm's first moments):
	// a stage shorter than this needs none — the label already says what is happening —
	// and under software rendering (Mesa llvmpipe) the animation's redraws take so much
	// CPU that the work beside it runs markedly slower. 0 (tests) shows the bar
	// at once.
	animateAfter time.Duration
	pending      *time.Timer                             // shows the animated bar after animateAfter; nil if none
	after        func(time.Duration, func()) *time.Timer // time.AfterFunc; tests fire it by hand
}

func newStatusBar(onCancel func()) *statusBar {
	s := &statusBar{
		label:    widget.NewLabel("Ready"),
		bar:      widget.NewProgressBar(),
		infinite: widget.NewProgressBarInfinite(),
		cancel:   widget.NewButton("Cancel", onCancel),
		after:    time.AfterFunc,
	}
	s.label.Truncation = fyne.TextTruncateEllipsis
	s.bar.Hide()
	s.infinite.Stop()
	s.infinite.Hide()
	s.cancel.Disable()
	bars := container.NewStack(s.bar, s.infinite)
	s.box = container.NewBorder(nil, nil, nil, container.NewHBox(container.NewGridWrap(fyne.NewSize(220, 30), bars), s.cancel), s.label)
	return s
}

func (s *statusBar) object() fyne.CanvasObject { return s.box }

// busy shows a job's progress; call it on the UI goroutine (inside fyne.Do from jobs).
func (s *statusBar) busy(p app.Progress) {
	if s.job == "" {
		s.probe.report("idle") // so the next report covers the job alone
	}
	s.job = p.Stage
	s.label.SetText(p.String())
	s.cancel.Enable()
	if f := p.Fraction(); f >= 0 {
		// Counts arrived: a later stage without counts gets its own full delay.
		if s.pending != nil {
			s.pending.Stop()
			s.pending = nil
		}
		s.infinite.Stop()
		s.infinite.Hide()
		s.bar.Show()
		s.bar.SetValue(f)
		return
	}
	s.bar.Hide()
	if s.animateAfter <= 0 {
		s.animate()
		return
	}
	if s.infinite.Visible() || s.pending != nil {
		return
	}
	var t *time.Timer
	t = s.after(s.animateAfter, func() {
		fyne.Do(func() {
			// A timer stopped too late still gets here: only the current one counts.
			if s.pending != t {
				return
			}
			s.pending = nil
			if s.job != "" && !s.bar.Visible() {
				s.animate()
			}
		})
	})
	s.pending = t
}

// animate shows the animated bar of a stage without counts.
func (s *statusBar) animate() {
	s.infinite.Show()
	s.infinite.Start()
}

// workDone marks the end of a job's background work, before its result is put on
// screen: the UI-latency probe then reports the two apart.
func (s *statusBar) workDone() {
	if s.job != "" {
		s.probe.report(s.job)
		s.job = "showing the result"
	}
}

// idle shows a final message and hides the progress.
func (s *statusBar) idle(msg string) {
	slog.Info("status", "text", msg)
	s.probe.report(s.job)
	s.job = ""
	if s.pending != nil {
		s.pending.Stop()
		s.pending = nil
	}
	s.label.SetText(msg)
	s.bar.Hide()
	s.infinite.Stop()
	s.infinite.Hide()
	s.cancel.Disable()
}

// Text is the status line as shown (for tests).
func (s *statusBar) text() string { return s.label.Text }
