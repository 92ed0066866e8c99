package imgproc

import (
	"testing"

	"featurelab/internal/procfs"
)

// TestBudgetTakesTheLowestLimit: half the free memory, which others share, or three
// quarters of what a hard limit leaves (ulimit -v, a cgroup), whichever is lowest.
// Before, the budget read the free memory alone: a 2 GB cgroup on a machine with 20 GB
// free planned for 10 GB and died half-way.
func TestBudgetTakesTheLowestLimit(t *testing.T) {
	const g = int64(1) << 30
	for _, tc := range []struct {
		name string
		room procfs.Room
		want int64
	}{
		{"free memory alone", procfs.Room{Free: 20 * g}, 10 * g},
		{"ulimit -v", procfs.Room{Free: 20 * g, Address: 4 * g}, 3 * g},
		{"a 2 GB cgroup", procfs.Room{Free: 20 * g, Address: 8 * g, Cgroup: 2 * g}, 3 * g / 2},
		{"less free than any limit", procfs.Room{Free: 2 * g, Address: 8 * g, Cgroup: 4 * g}, g},
		{"a cgroup over its limit", procfs.Room{Free: 20 * g, Cgroup: 1}, 1},
		{"nothing says", procfs.Room{}, DefaultMemory},
	} {
		if got := BudgetOf(tc.room); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
