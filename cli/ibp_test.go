package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"testing"

	"featurelab/algorithms"
	"featurelab/internal/accuracy"
)

// TestAnalyzeIBPTetris is issue 4's acceptance run through the command line:
// `featurelab analyze --algo ibp --sample tetris --pca 0 --alpha-prior gamma --json` on
// the built-in sample (5 blocks, noise sd 0.1), the papers' model, gives K = 5 and a
// posterior-mean σ_X within [0.085, 0.115] after the default 1000 sweeps of the default
// 4 chains, and the summary carries the sampler's fields. The default, tied prior gives
// K = 5 too; its σ_X is not the noise's (a feature's price λ² sits in it).
func TestAnalyzeIBPTetris(t *testing.T) {
	accuracy.Check(t)
	for _, prior := range []string{"gamma", ""} {
		t.Run("alpha prior "+cmp.Or(prior, "default"), func(t *testing.T) { analyzeIBPTetris(t, prior) })
	}
}

func analyzeIBPTetris(t *testing.T, prior string) {
	var stdout, stderr bytes.Buffer
	args := []string{"analyze", "--algo", "ibp", "--sample", "tetris", "--pca", "0", "--json", "--out", t.TempDir()}
	if prior != "" {
		args = append(args, "--alpha-prior", prior)
	}
	code := Run(args, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s struct {
		K          int      `json:"k"`
		PCADims    int      `json:"pca_dims"`
		Restarts   int      `json:"restarts"`
		Alpha      *float64 `json:"alpha"`
		SigmaX     float64  `json:"sigma_x"`
		SigmaA     *float64 `json:"sigma_a"`
		KTrace     []int    `json:"k_trace"`
		KHistogram []int    `json:"k_histogram"`
		Codes      []string `json:"codes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	t.Logf("K %d, σ_X %.4f, K histogram %v, %d chains", s.K, s.SigmaX, s.KHistogram, s.Restarts)
	if s.K != 5 || s.PCADims != 0 {
		t.Errorf("K = %d with pca_dims %d, want 5 with 0", s.K, s.PCADims)
	}
	if prior != "" && (s.SigmaX < 0.085 || s.SigmaX > 0.115) {
		t.Errorf("sigma_x = %.4f, want within [0.085, 0.115]", s.SigmaX)
	}
	if s.Alpha == nil || s.SigmaA == nil || len(s.KTrace) != 1000 || len(s.Codes) != 100 || s.Restarts != algorithms.DefaultChains {
		t.Errorf("summary: alpha %v, sigma_a %v, %d k_trace entries, %d codes, %d chains; want both set, 1000, 100, %d",
			s.Alpha, s.SigmaA, len(s.KTrace), len(s.Codes), s.Restarts, algorithms.DefaultChains)
	}
}
