package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"featurelab/app/jobs"
)

// profiling is what analyze's --cpuprofile, --memprofile and --progress-log ask for:
// the Go CPU profile of the whole run, the heap profile at its end, and every progress
// report with the time it was made, so that a slow stage or a silent one can be found.
type profiling struct {
	cpu, mem, progress *string

	cpuFile *os.File
	ended   bool
	mu      sync.Mutex
	log     *os.File
	start   time.Time
}

// profileFlags defines the profiling flags on fs.
func profileFlags(fs *flag.FlagSet) *profiling {
	return &profiling{
		cpu:      fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof reads it)"),
		mem:      fs.String("memprofile", "", "write a heap profile at the end of the run to this file"),
		progress: fs.String("progress-log", "", "write every progress report to this file, a line each: seconds since the start, the share done, the seconds left the report gave, the stage, and \"at least\" where that time is a lower bound"),
	}
}

// begin starts what was asked; end must be called after the run, whatever its outcome.
func (p *profiling) begin() error {
	p.start = time.Now()
	if *p.cpu != "" {
		f, err := os.Create(*p.cpu)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("cpu profile: %w", err)
		}
		p.cpuFile = f
	}
	if *p.progress != "" {
		f, err := os.Create(*p.progress)
		if err != nil {
			p.end()
			return fmt.Errorf("progress log: %w", err)
		}
		p.log = f
	}
	return nil
}

// observe wraps report so that every progress report is also logged.
func (p *profiling) observe(report func(jobs.Progress)) func(jobs.Progress) {
	if p.log == nil {
		return report
	}
	return func(pr jobs.Progress) {
		p.mu.Lock()
		writeProgress(p.log, time.Since(p.start), pr)
		p.mu.Unlock()
		report(pr)
	}
}

// writeProgress is one line of the progress log; its last field is "at least" where the
// time left is a lower bound (jobs.Progress.AtLeast), else empty.
func writeProgress(w io.Writer, at time.Duration, pr jobs.Progress) {
	bound := ""
	if pr.AtLeast {
		bound = "at least"
	}
	fmt.Fprintf(w, "%.3f\t%.4f\t%.3f\t%s\t%s\n", at.Seconds(), pr.Fraction(), pr.ETA.Seconds(), pr.Stage, bound)
}

// end stops the CPU profile, writes the heap profile and closes the log; its error is
// the first of theirs. Only its first call does anything.
func (p *profiling) end() error {
	if p.ended {
		return nil
	}
	p.ended = true
	var first error
	keep := func(err error) {
		if first == nil && err != nil {
			first = err
		}
	}
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		keep(p.cpuFile.Close())
		p.cpuFile = nil
	}
	if p.log != nil {
		p.mu.Lock()
		writeProgress(p.log, time.Since(p.start), jobs.Progress{Stage: "done", Done: 1, Total: 1})
		keep(p.log.Close())
		p.log = nil
		p.mu.Unlock()
	}
	if *p.mem != "" {
		f, err := os.Create(*p.mem)
		if err != nil {
			return fmt.Errorf("memory profile: %w", err)
		}
		runtime.GC()
		keep(pprof.WriteHeapProfile(f))
		keep(f.Close())
	}
	return first
}
