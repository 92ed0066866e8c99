//go:build unix

package main

import (
	"os"
	"syscall"
)

// maxRSS is the peak resident memory of a finished process, in bytes (getrusage's
// ru_maxrss, in kilobytes on Linux); 0 when it cannot be read.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
