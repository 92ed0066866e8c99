package views

import (
	"log/slog"

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
}

func newStatusBar(onCancel func()) *statusBar {
	s := &statusBar{
		label:    widget.NewLabel("Ready"),
		bar:      widget.NewProgressBar(),
		infinite: widget.NewProgressBarInfinite(),
		cancel:   widget.NewButton("Cancel", onCancel),
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
		s.infinite.Stop()
		s.infinite.Hide()
		s.bar.Show()
		s.bar.SetValue(f)
		return
	}
	s.bar.Hide()
	s.infinite.Show()
	s.infinite.Start()
}

// idle shows a final message and hides the progress.
func (s *statusBar) idle(msg string) {
	slog.Info("status", "text", msg)
	s.probe.report(s.job)
	s.job = ""
	s.label.SetText(msg)
	s.bar.Hide()
	s.infinite.Stop()
	s.infinite.Hide()
	s.cancel.Disable()
}

// Text is the status line as shown (for tests).
func (s *statusBar) text() string { return s.label.Text }
