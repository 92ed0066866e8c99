package cli

import "runtime"

// noDisplay says why the window cannot open here, or "" when it can try. On Linux and
// the BSDs the window needs an X11 or Wayland display; without one GLFW failed with
// "internal error: NotInitialized: The GLFW library is not initialized" after four
// lines of Fyne's log, which a user on an SSH session or in a container cannot act on.
func noDisplay(getenv func(string) string) string {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios", "js":
		return ""
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return ""
	}
	return "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
		"start it in a desktop session, or run a headless command such as featurelab analyze DIR (featurelab help lists them)"
}
