package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// sklearnScript loads a folder's pictures as one float32 matrix with Pillow and NumPy
// (the way a scikit-learn user would) and fits scikit-learn's randomized PCA with 100
// components twice, timing the load and both fits; it prints one JSON line.
const sklearnScript = `
import json, os, resource, sys, time
import numpy as np
from PIL import Image
from sklearn.decomposition import PCA
d = sys.argv[1]
names = sorted(f for f in os.listdir(d) if not f.startswith("."))
t = time.time()
X = np.stack([np.asarray(Image.open(os.path.join(d, f)).convert("RGB"), dtype=np.float32).ravel() / 255 for f in names])
load = time.time() - t
runs = []
for _ in range(2):  # the second run is warm: NumPy's BLAS threads are up
    t = time.time()
    PCA(n_components=100, svd_solver="randomized", random_state=0).fit_transform(X)
    runs.append(time.time() - t)
print(json.dumps({"n": X.shape[0], "p": X.shape[1], "load": load, "pca": runs[0], "warm": runs[1],
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
`

// sklearnPython returns a python3 that has scikit-learn, or "" if there is none.
func sklearnPython(want string) string {
	candidates := []string{want}
	if want == "" {
		candidates = []string{"/usr/bin/python3", "python3"}
	}
	for _, py := range candidates {
		if err := exec.Command(py, "-c", "import sklearn, PIL, numpy").Run(); err == nil {
			return py
		}
	}
	return ""
}

// benchSklearn prints scikit-learn's load and PCA on the folder, or why it cannot, and
// how many times faster featurelab's load + PCA (ours, in seconds) is than scikit-learn's
// load + warm PCA; it returns that ratio (0 when scikit-learn did not run).
func benchSklearn(py, dir string, ours float64) float64 {
	if py == "" {
		fmt.Println("scikit-learn: not installed (apt-get install python3-sklearn python3-pil); skipped")
		return 0
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("featurelab-bench-sklearn-%d.py", os.Getpid()))
	if err := os.WriteFile(script, []byte(sklearnScript), 0o644); err != nil {
		fmt.Println("scikit-learn:", err)
		return 0
	}
	defer os.Remove(script)
	cmd := exec.Command(py, script, dir)
	// NumPy's BLAS may use every core, as featurelab does.
	cmd.Env = append(os.Environ(), fmt.Sprintf("OMP_NUM_THREADS=%d", runtime.NumCPU()))
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = lastLines(string(ee.Stderr), 3)
		}
		fmt.Println("scikit-learn: failed:", strings.TrimSpace(msg))
		return 0
	}
	var r struct {
		N, P            int
		Load, PCA, Warm float64
		Peak            int64
	}
	if err := json.Unmarshal(out, &r); err != nil {
		fmt.Println("scikit-learn: unreadable result:", err)
		return 0
	}
	fmt.Printf("scikit-learn side by side (Pillow + NumPy float32, PCA(100, randomized))\n")
	fmt.Printf("  %-22s %8.2f\n", "load", r.Load)
	fmt.Printf("  %-22s %8.2f\n", "PCA, first run", r.PCA)
	fmt.Printf("  %-22s %8.2f\n", "PCA, second (warm) run", r.Warm)
	fmt.Printf("  %-22s %8.2f %12.0f\n", "load + warm PCA, peak MB", r.Load+r.Warm, mb(r.Peak))
	if !(ours > 0) {
		return 0
	}
	ratio := (r.Load + r.Warm) / ours
	fmt.Printf("  featurelab's load + PCA is %.2f× as fast as scikit-learn's load + warm PCA\n", ratio)
	return ratio
}
