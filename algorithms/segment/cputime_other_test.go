//go:build !unix

package segment

import "time"

// cpuTime: getrusage exists on Unix only; elsewhere the benchmarks report no CPU time.
func cpuTime() time.Duration { return 0 }
