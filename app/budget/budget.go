package budget

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"featurelab/internal/procfs"
)

// Env names the environment variable that sets how much memory the data matrix of a
// folder and its run may take, in bytes or with a K, M or G suffix ("2G"); unset, the
// loader plans for imgproc.FromEnv (half the free memory, or less under a limit).
const Env = "FEATURELAB_MEMORY"

// FromEnv reads Env: 0 when it is unset, an error naming it when it is not a
// size.
func FromEnv() (int64, error) {
	v := strings.TrimSpace(os.Getenv(Env))
	if v == "" {
		return 0, nil
	}
	mult := int64(1)
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || !(n > 0) || n*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%s=%q is not a size: give bytes, or a number with K, M or G", Env, os.Getenv(Env))
	}
	return int64(n * float64(mult)), nil
}

// PeakResident returns the process's peak resident memory so far (VmHWM in
// /proc/self/status), in bytes, or 0 where the system does not say.
func PeakResident() int64 { return procfs.KB("/proc/self/status", "VmHWM") }

// Next sets the Go runtime's soft memory limit for the next stage of a run, which
// will allocate about extra bytes: what the heap holds now, after a collection (a window
// keeps its current data set while the next one loads), plus extra plus 256 MB. The
// collector then works harder near that size instead of letting the heap grow to twice
// what is live, which lowers a large folder's peak at no cost in time. A GOMEMLIMIT the
// user set wins.
func Next(extra int64) { Stage(extra, 256<<20) }

// Stage is Next with slack bytes over the estimate instead of 256 MB: for a
// stage whose own needs are known well enough (an algorithm's run), and whose garbage
// is large, pointer-free arrays, each collection a few milliseconds.
func Stage(extra, slack int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(int64(ms.HeapAlloc) + extra + slack)
}
