package procfs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRoomReadsEveryLimit: the free memory, the address-space limit less the mapped
// size, and the memory cgroup's limit less its usage, each found where /proc/self/cgroup
// says (v2, v1, or at the root a container shows), each 0 where it does not apply.
func TestRoomReadsEveryLimit(t *testing.T) {
	const meminfo = "MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n"
	const status = "Name:\tfeaturelab\nVmSize:\t  500000 kB\n"
	limit := func(v uint64) func() (uint64, bool) { return func() (uint64, bool) { return v, true } }
	unlimited := func() (uint64, bool) { return 0, false }
	for _, tc := range []struct {
		name    string
		files   map[string]string // under the fake root: proc/… and cgroup/…
		address func() (uint64, bool)
		want    Room
	}{
		{"nothing but free memory", map[string]string{"proc/meminfo": meminfo}, unlimited,
			Room{Free: 4000000 << 10}},
		{"ulimit -v", map[string]string{"proc/meminfo": meminfo, "proc/self/status": status}, limit(4000000 << 10),
			Room{Free: 4000000 << 10, Address: (3500000 << 10) &^ (256<<20 - 1)}},
		{"cgroup v2", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/user.slice/run-1.scope\n",
			"cgroup/user.slice/run-1.scope/memory.max": "2147483648\n", "cgroup/user.slice/run-1.scope/memory.current": "147483648\n"}, unlimited,
			Room{Free: 4000000 << 10, Cgroup: 2000000000}},
		{"cgroup v2 without a limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/a\n",
			"cgroup/a/memory.max": "max\n", "cgroup/a/memory.current": "1000\n"}, unlimited,
			Room{Free: 4000000 << 10}},
		{"cgroup v2 seen from inside a container", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"cgroup/memory.max": "1073741824\n", "cgroup/memory.current": "73741824\n"}, unlimited,
			Room{Free: 4000000 << 10, Cgroup: 1000000000}},
		{"cgroup v1", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "5:cpu,cpuacct:/\n4:memory:/job/7\n",
			"cgroup/memory/job/7/memory.limit_in_bytes": "3000000000\n", "cgroup/memory/job/7/memory.usage_in_bytes": "1000000000\n"}, unlimited,
			Room{Free: 4000000 << 10, Cgroup: 2000000000}},
		{"cgroup v1 without a limit", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/job\n",
			"cgroup/memory/job/memory.limit_in_bytes": "9223372036854771712\n"}, unlimited,
			Room{Free: 4000000 << 10}},
		{"a cgroup over its limit", map[string]string{"proc/self/cgroup": "0::/a\n",
			"cgroup/a/memory.max": "1000\n", "cgroup/a/memory.current": "5000\n"}, unlimited,
			Room{Cgroup: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				path := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := System{Proc: filepath.Join(root, "proc"), Cgroup: filepath.Join(root, "cgroup"), AddressLimit: tc.address}
			if got := s.Room(); got != tc.want {
				t.Errorf("room %+v, want %+v", got, tc.want)
			}
		})
	}
}
