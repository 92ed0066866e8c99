package views

import (
	"context"
	"log/slog"
	"os"
	"strings"
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

// logStarted records how long the window took to appear after the process started.
func logStarted(start time.Time) {
	slog.Info("window shown", "seconds", time.Since(start).Seconds())
}

// logControls logs the centre of each main control in window coordinates, at debug
// level; call on the UI goroutine once the window is laid out.
func (ui *UI) logControls() {
	if !slog.Default().Enabled(context.Background(), slog.LevelDebug) || ui.app.Driver() == nil {
		return
	}
	controls := []struct {
		name string
		obj  fyne.CanvasObject
	}{{"run", ui.run.runBtn}, {"cancel", ui.run.stopBtn}}
	for _, c := range controls {
		pos := ui.app.Driver().AbsolutePositionForObject(c.obj)
		size := c.obj.Size()
		slog.Debug("control", "name", c.name, "x", int(pos.X+size.Width/2), "y", int(pos.Y+size.Height/2))
	}
}
