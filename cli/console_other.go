//go:build !windows

package cli

// releaseConsole has nothing to do outside Windows (console_windows.go).
func releaseConsole() {}
