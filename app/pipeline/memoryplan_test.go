package pipeline_test

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/app/budget"
	"featurelab/app/pipeline"
	"featurelab/internal/procfs"
)

// TestLoadHeldToTheLowestLimit loads 30 small pictures on a machine with 20 GB free,
// under an address-space limit or a cgroup's memory limit too small for them (procfs.Host
// pointed at files of the test's own): the load is refused in one line before the data
// matrix is made, where before it planned for half the free memory and went on.
func TestLoadHeldToTheLowestLimit(t *testing.T) {
	t.Setenv(budget.Env, "")
	dir := t.TempDir()
	writeTiles(t, dir, 30, image.Pt(64, 48), true)
	unlimited := func() (uint64, bool) { return 0, false }
	for _, tc := range []struct {
		name    string
		files   map[string]string
		address func() (uint64, bool)
		refused string // in the refusal, or "" for none
	}{
		{"free memory alone", nil, unlimited, ""},
		{"ulimit -v", map[string]string{"proc/self/status": "VmSize:\t1000 kB\n"},
			func() (uint64, bool) { return 200 << 20, true }, "there is room for under the address-space limit (ulimit -v)"},
		{"a cgroup v2", map[string]string{"proc/self/cgroup": "0::/job\n", "cgroup/job/memory.max": "2000000\n", "cgroup/job/memory.current": "1000000\n"},
			unlimited, "there is room for under the cgroup's memory limit"},
		{"a cgroup v1", map[string]string{"proc/self/cgroup": "3:memory:/job\n", "cgroup/memory/job/memory.limit_in_bytes": "1000000\n"},
			unlimited, "there is room for under the cgroup's memory limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"proc/meminfo": "MemAvailable: 20000000 kB\n"}
			for name, text := range tc.files {
				files[name] = text
			}
			for name, text := range files {
				path := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			defer func(was procfs.System) { procfs.Host = was }(procfs.Host)
			procfs.Host = procfs.System{Proc: filepath.Join(root, "proc"), Cgroup: filepath.Join(root, "cgroup"), AddressLimit: tc.address}
			_, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused) || strings.Contains(err.Error(), "\n")):
				t.Fatalf("%v, want one line: …%s…", err, tc.refused)
			}
		})
	}
}
