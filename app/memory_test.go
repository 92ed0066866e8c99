package app

import (
	"runtime"
	"testing"
)

func TestMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int64
		bad  bool
	}{
		{"", 0, false}, {"1048576", 1 << 20, false}, {"512K", 512 << 10, false}, {"1.5G", 3 << 29, false},
		{"200m", 200 << 20, false}, {"lots", 0, true}, {"-1G", 0, true}, {"0", 0, true}, {"G", 0, true},
	} {
		t.Setenv(MemoryEnv, tc.env)
		got, err := memoryBudget()
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%s=%q: %d, %v; want %d (error %v)", MemoryEnv, tc.env, got, err, tc.want, tc.bad)
		}
	}
}

// TestPeakResident: the peak is read, it is at least what the heap holds, and it does not
// fall.
func TestPeakResident(t *testing.T) {
	first := peakResident()
	if first <= 0 {
		t.Skip("this system does not report a peak resident size (/proc/self/status VmHWM)")
	}
	ballast := make([]byte, 64<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	second := peakResident()
	if second < first || second < 64<<20 {
		t.Fatalf("peak %d after touching 64 MB, %d before", second, first)
	}
	runtime.KeepAlive(ballast)
}
