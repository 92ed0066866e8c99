package budget

import (
	"runtime"
	"runtime/debug"
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
		t.Setenv(Env, tc.env)
		got, err := FromEnv()
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%s=%q: %d, %v; want %d (error %v)", Env, tc.env, got, err, tc.want, tc.bad)
		}
	}
}

// TestPeakResident: the peak is read, it is at least what the heap holds, and it does not
// fall.
func TestPeakResident(t *testing.T) {
	first := PeakResident()
	if first <= 0 {
		t.Skip("this system does not report a peak resident size (/proc/self/status VmHWM)")
	}
	ballast := make([]byte, 64<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	second := PeakResident()
	if second < first || second < 64<<20 {
		t.Fatalf("peak %d after touching 64 MB, %d before", second, first)
	}
	runtime.KeepAlive(ballast)
}

// TestBudgetNext: the soft memory limit becomes what the heap holds plus the next stage's
// plan plus 256 MB, unless the user set GOMEMLIMIT.
func TestBudgetNext(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	Next(100 << 20)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := debug.SetMemoryLimit(-1)
	if lo, hi := int64(ms.HeapAlloc)+356<<20-64<<20, int64(ms.HeapAlloc)+356<<20+64<<20; limit < lo || limit > hi {
		t.Fatalf("limit %d MB with %d MB on the heap, want about heap + 356 MB", limit>>20, ms.HeapAlloc>>20)
	}
	t.Setenv("GOMEMLIMIT", "5GiB")
	debug.SetMemoryLimit(1 << 40)
	Next(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("with GOMEMLIMIT set the limit changed to %d", got)
	}
}
