package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// awkward is a data matrix of a shape users' folders produce and the papers' data never
// do: a handful of images, copies, flat images, one dimension, extreme scales.
type awkward struct {
	name string
	X    *mat.Dense
}

// awkwardData builds the property sweep's data sets, deterministically.
func awkwardData() []awkward {
	rng := rand.New(rand.NewPCG(3, 14))
	random := func(n, d int, scale float64) *mat.Dense {
		X := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				X.Set(i, j, scale*rng.NormFloat64())
			}
		}
		return X
	}
	var out []awkward
	for n := 2; n <= 6; n++ {
		out = append(out, awkward{fmt.Sprintf("N=%d", n), random(n, 4, 1)})
	}
	dup := random(3, 5, 1)
	dup = mat.NewDense(6, 5, append(append([]float64(nil), dup.RawMatrix().Data...), dup.RawMatrix().Data...))
	out = append(out,
		awkward{"duplicated rows", dup},
		awkward{"constant rows", mat.NewDense(4, 3, []float64{1, 1, 1, 2, 2, 2, -1, -1, -1, 0, 0, 0})},
		awkward{"zero variance", mat.NewDense(4, 3, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3})},
		awkward{"all zero", mat.NewDense(5, 2, nil)},
		awkward{"D=1", random(6, 1, 1)},
		awkward{"N=1", random(1, 3, 1)},
		awkward{"scale 1e-8", random(6, 4, 1e-8)},
		awkward{"scale 1e8", random(6, 4, 1e8)},
		awkward{"scale 1e150", random(5, 3, 1e150)},
		awkward{"one huge entry", mat.NewDense(3, 2, []float64{1e300, 0, 0, 1, 1, 0})},
	)
	nan := random(4, 3, 1)
	nan.Set(2, 1, math.NaN())
	inf := random(4, 3, 1)
	inf.Set(0, 2, math.Inf(-1))
	return append(out, awkward{"NaN", nan}, awkward{"Inf", inf})
}

// checkInvariants returns what is wrong with a learner's result on X, or nil: Z binary
// and N×K, A K×D, every feature owned by some row and no two features owned by the same
// rows, K within the learner's bounds, and a finite Objective equal to ‖X − ZA‖²
// recomputed from Z and A (for the Euclidean learners).
func checkInvariants(algo string, X *mat.Dense, opt learn.Options, res *learn.Result) error {
	n, d := X.Dims()
	if res == nil {
		return fmt.Errorf("nil result without an error")
	}
	if res.Algorithm != algo {
		return fmt.Errorf("result of %q", res.Algorithm)
	}
	if res.K == 0 {
		// Only a sampler may end with no features; it says so with empty Z and A.
		if algo != "ibp" || !res.Z.IsEmpty() || !res.A.IsEmpty() {
			return fmt.Errorf("K = 0 with Z %v", res.Z)
		}
		return nil
	}
	zr, zc := res.Z.Dims()
	ar, ac := res.A.Dims()
	if zr != n || zc != res.K || ar != res.K || ac != d {
		return fmt.Errorf("Z %d×%d, A %d×%d for N = %d, D = %d, K = %d", zr, zc, ar, ac, n, d, res.K)
	}
	cols := make([]string, res.K)
	for k := 0; k < res.K; k++ {
		var col strings.Builder
		owners := 0
		for i := 0; i < n; i++ {
			switch v := res.Z.At(i, k); v {
			case 0:
				col.WriteByte('0')
			case 1:
				col.WriteByte('1')
				owners++
			default:
				return fmt.Errorf("Z[%d,%d] = %v, not binary", i, k, v)
			}
		}
		if owners == 0 {
			return fmt.Errorf("feature %d is owned by no row", k)
		}
		cols[k] = col.String()
		for j := 0; j < k; j++ {
			if cols[j] == cols[k] {
				return fmt.Errorf("features %d and %d are owned by the same rows %s", j, k, cols[k])
			}
		}
	}
	want := opt.KOrDefault()
	switch algo {
	case "kmeans":
		if res.K != want {
			return fmt.Errorf("K = %d, asked for %d", res.K, want)
		}
	case "kfeatures":
		// K-features drops a feature it cannot use (every row already fitted exactly).
		if res.K > want {
			return fmt.Errorf("K = %d, asked for %d", res.K, want)
		}
	case "dpmeans", "collapsed-dpmeans":
		if res.K > n {
			return fmt.Errorf("%d clusters of %d rows", res.K, n)
		}
	}
	if res.K > 64 {
		return fmt.Errorf("K = %d beyond 64", res.K)
	}
	for i := 0; i < ar; i++ {
		for _, v := range res.A.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("A holds %v", v)
			}
		}
	}
	if math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0) {
		return fmt.Errorf("objective %v", res.Objective)
	}
	// Objective is the least-squares ‖X − ZA‖² of Z for every learner; A is the
	// least-squares A itself except for the IBP, whose posterior-mean A fits as
	// PosteriorObjective says.
	scale := mat.Norm(X, 2) * mat.Norm(X, 2)
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*(scale+b)+1e-300 }
	if ls := learn.LeastSquaresSS(X, res.Z); !close(res.Objective, ls) {
		return fmt.Errorf("objective %v, but the least-squares ‖X − ZA‖² of Z is %v", res.Objective, ls)
	}
	withA, rss := res.Objective, learn.ResidualSS(X, res.Z, res.A)
	if algo == "ibp" {
		withA = res.PosteriorObjective
		if !(res.Objective <= withA*(1+1e-9)+1e-300) {
			return fmt.Errorf("least-squares objective %v above the posterior-mean one %v", res.Objective, withA)
		}
	}
	if !close(withA, rss) {
		return fmt.Errorf("objective %v, but ‖X − ZA‖² = %v", withA, rss)
	}
	return nil
}

// TestEveryLearnerOnAwkwardData is the property sweep: every learner, on every awkward
// data set, with several seeds and K below, at and above N, ends in a result that keeps
// the invariants or in an error — never a panic, never a broken result.
func TestEveryLearnerOnAwkwardData(t *testing.T) {
	results, errs := 0, 0
	for _, data := range awkwardData() {
		n, _ := data.X.Dims()
		for _, algo := range Names() {
			for _, k := range []int{1, 2, n + 1} {
				for seed := uint64(1); seed <= 3; seed++ {
					opt := learn.Options{K: k, Lambda2: 0.5, Restarts: 3, MaxIter: 50, Sweeps: 30, Chains: 2, Seed: seed, Workers: 2}
					res, err := runSafely(algo, data.X, opt)
					if err != nil {
						if strings.Contains(err.Error(), "panic") {
							t.Errorf("%s on %s (K %d, seed %d): %v", algo, data.name, k, seed, err)
						}
						errs++
						continue
					}
					results++
					if bad := checkInvariants(algo, data.X, opt, res); bad != nil {
						t.Errorf("%s on %s (K %d, seed %d): %v", algo, data.name, k, seed, bad)
					}
				}
			}
		}
	}
	t.Logf("%d results kept their invariants, %d runs ended in an error", results, errs)
}

// runSafely runs a learner and turns a panic into an error that says so, so that one
// panic does not hide the others.
func runSafely(algo string, X *mat.Dense, opt learn.Options) (res *learn.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return MustLookup(algo).Run(context.Background(), X, opt)
}

// FuzzLearners feeds every learner small matrices decoded from fuzz input: the first
// bytes choose N (1…8), D (1…4), K, λ² and a scale 10^e (e from −256 to 254), the rest
// are the entries. Every run must keep the invariants or return an error, and never panic.
func FuzzLearners(f *testing.F) {
	f.Add([]byte{3, 2, 2, 10, 0, 1, 2, 3, 4, 5, 6, 7, 8}, uint64(1))
	f.Add([]byte{1, 0, 5, 1, 200, 9, 9, 9, 9, 9, 9}, uint64(2))
	f.Add([]byte{7, 3, 9, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255}, uint64(3))
	// The bugs the property sweep found are kept in testdata/fuzz/FuzzLearners:
	// kmeans-squares-overflow (an entry of 4e254: every squared distance of its row was
	// +Inf, K-means found no nearest centre and indexed cluster −1) and
	// ibp-one-row-twin-features (the IBP reported two features owned by the same rows),
	// and ibp-least-squares-rounding (a near-exact least-squares fit computed as
	// ‖X‖² − ‖projection‖² came out above the posterior-mean one).
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) < 5 {
			return
		}
		n, d := 1+int(data[0]%8), 1+int(data[1]%4)
		k := int(data[2] % 10)
		lambda2 := float64(data[3]) / 16
		scale := math.Pow(10, 2*float64(int8(data[4])))
		X := mat.NewDense(n, d, nil)
		raw := data[5:]
		for i := 0; i < n*d; i++ {
			v := 0.0
			if len(raw) > 0 {
				v = (float64(raw[i%len(raw)]) - 128) / 32
			}
			X.Set(i/d, i%d, v*scale)
		}
		for _, algo := range Names() {
			opt := learn.Options{K: k, Lambda2: lambda2, Restarts: 2, MaxIter: 30, Sweeps: 10, Seed: seed, Workers: 1}
			res, err := runSafely(algo, X, opt)
			if err != nil {
				if strings.Contains(err.Error(), "panic") {
					t.Fatalf("%s on %v (K %d, λ² %v): %v", algo, mat.Formatted(X), k, lambda2, err)
				}
				continue
			}
			if bad := checkInvariants(algo, X, opt, res); bad != nil {
				t.Fatalf("%s on %v (K %d, λ² %v): %v", algo, mat.Formatted(X), k, lambda2, bad)
			}
		}
	})
}
