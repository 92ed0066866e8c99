package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// paletteGroups makes J groups of rows drawn around a palette of global means: each group
// uses a random subset of 2 to 4 palette colours, per colour `per` rows with Gaussian
// noise of sd noise. It returns the rows, their groups, their palette colour, and each
// group's number of colours.
func paletteGroups(seed uint64, palette [][]float64, groups, per int, noise float64) (*mat.Dense, []int, []int, []int) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	d := len(palette[0])
	var data []float64
	var group, colour, used []int
	for j := 0; j < groups; j++ {
		cols := rng.Perm(len(palette))[:2+rng.IntN(3)]
		used = append(used, len(cols))
		for _, c := range cols {
			for r := 0; r < per; r++ {
				for k := 0; k < d; k++ {
					data = append(data, palette[c][k]+noise*rng.NormFloat64())
				}
				group = append(group, j)
				colour = append(colour, c)
			}
		}
	}
	return mat.NewDense(len(group), d, data), group, colour, used
}

// testPalette is six colours at least 10 apart in three dimensions.
var testPalette = [][]float64{{0, 0, 0}, {10, 0, 0}, {0, 10, 0}, {0, 0, 10}, {10, 10, 0}, {10, 0, 10}}

// TestHardHDPRecoversPalette: groups that each use a few colours of one palette give one
// global cluster per palette colour, the same in every group, and each group as many
// local clusters as colours it uses — with penalties given, and with the proposed ones.
func TestHardHDPRecoversPalette(t *testing.T) {
	X, group, colour, used := paletteGroups(1, testPalette, 8, 30, 0.3)
	for _, tc := range []struct {
		name   string
		ll, lg float64
	}{{"given", 5, 5}, {"proposed", 0, 0}} {
		res, err := HardHDP(context.Background(), X, group, HDPOptions{Options: learn.Options{Restarts: 5, Seed: 1, K: len(testPalette)},
			LambdaLocal: tc.ll, LambdaGlobal: tc.lg})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: K = %d, λ_bottom %.3g, λ_top %.3g, objective %.3f, penalised %.3f, local %v",
			tc.name, res.K, res.LambdaLocal, res.LambdaGlobal, res.Objective, res.Penalised, res.Local)
		if res.K != len(testPalette) || !slices.Equal(res.Local, used) {
			t.Errorf("%s: K = %d (want %d), local clusters %v (want %v)", tc.name, res.K, len(testPalette), res.Local, used)
		}
		if ri := randIndex(res.Assign, colour); ri != 1 {
			t.Errorf("%s: Rand index against the palette %v", tc.name, ri)
		}
		r, c := res.Means.Dims()
		if r != res.K || c != 3 || slices.Min(res.RestartObjectives) != res.Penalised {
			t.Errorf("%s: means %d×%d, best restart %v, result %v", tc.name, r, c, slices.Min(res.RestartObjectives), res.Penalised)
		}
	}
}

// TestHardHDPObjectiveNeverRises follows eq. (4) after every step of every pass — row
// moves, local moves, mean updates — for each divergence, on overlapping groups.
func TestHardHDPObjectiveNeverRises(t *testing.T) {
	X, group, _, _ := paletteGroups(2, [][]float64{{1, 1, 1}, {3, 1, 1}, {1, 3, 1}, {2, 2, 3}}, 6, 20, 0.8)
	// Non-negative rows with a positive sum for KL and the I-divergence.
	n, d := X.Dims()
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			X.Set(i, k, math.Abs(X.At(i, k))+0.01)
		}
	}
	groups, err := checkGroups(group, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, div := range []string{"euclidean", "kl", "idiv"} {
		kind, _ := parseDivergence(div)
		data, err := newBregData(X, kind)
		if err != nil {
			t.Fatal(err)
		}
		pl := data.proposeLocal(4)
		pg := pl * globalFactor(data.n, len(groups), 4)
		for _, scale := range []float64{0.1, 1, 10} {
			w := newHDPWork(data, group, groups, pl*scale, pg*scale, 1000)
			w.seeds = 6
			prev, steps := math.Inf(1), 0
			w.trace = func(step string, obj float64) {
				if obj > prev*(1+1e-9)+1e-12 {
					t.Fatalf("%s ×%v: objective rose at %s: %v → %v", div, scale, step, prev, obj)
				}
				prev = obj
				steps++
			}
			for r := 0; r < 4; r++ {
				prev = math.Inf(1)
				if _, err := w.run(context.Background(), w.states.cur, learn.RestartRNG(5, r), r%2 == 1); err != nil {
					t.Fatal(err)
				}
			}
			if steps < 8 {
				t.Fatalf("%s: only %d steps traced", div, steps)
			}
		}
	}
}

func TestHardHDPWorkersDeterministic(t *testing.T) {
	X, group, _, _ := paletteGroups(3, [][]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}}, 6, 15, 0.9) // overlapping
	var first *HDPResult
	for _, workers := range []int{1, 2, 8} {
		res, err := HardHDP(context.Background(), X, group, HDPOptions{Options: learn.Options{Restarts: 12, Seed: 4, Workers: workers},
			LambdaLocal: 2, LambdaGlobal: 3})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if !slices.Equal(res.Assign, first.Assign) || !mat.Equal(res.Means, first.Means) || res.Penalised != first.Penalised ||
			!slices.Equal(res.RestartObjectives, first.RestartObjectives) {
			t.Errorf("workers=%d gives a different result from workers=1", workers)
		}
	}
}

func TestHardHDPBadInput(t *testing.T) {
	X, group, _, _ := paletteGroups(1, testPalette, 2, 3, 0.1)
	gap := slices.Clone(group)
	for i := range gap {
		if gap[i] == 1 {
			gap[i] = 2
		}
	}
	for _, c := range []struct {
		name  string
		X     *mat.Dense
		group []int
		opt   HDPOptions
		want  string
	}{
		{"short groups", X, group[:3], HDPOptions{}, "group labels for"},
		{"negative group", X, append([]int{-1}, group[1:]...), HDPOptions{}, "has group -1"},
		{"a gap", X, gap, HDPOptions{}, "group 1 has no rows"},
		{"negative λ", X, group, HDPOptions{LambdaLocal: -1}, "lambda-local must be"},
		{"NaN λ", X, group, HDPOptions{LambdaGlobal: math.NaN()}, "lambda-global must be"},
		{"kl on negative rows", X, group, HDPOptions{Options: learn.Options{Divergence: "kl"}}, "non-negative"},
	} {
		_, err := HardHDP(context.Background(), c.X, c.group, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestHDPLearner: the hard HDP in the learners' shape is HardHDP with the groups and
// penalties of its Options — one-hot codes of its global clusters, means as A, the
// penalised objective as BPObjective — proposing λ_top from the λ_bottom given, and both
// when neither is.
func TestHDPLearner(t *testing.T) {
	X, group, _, _ := paletteGroups(7, testPalette, 8, 20, 0.5)
	opt := learn.Options{K: len(testPalette), Restarts: 4, Seed: 3, Groups: group, Lambda2: 40}
	res, err := HDP(context.Background(), X, opt)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := X.Dims()
	lg := 40 * max(1, float64(n)/float64(8*len(testPalette)))
	h, err := HardHDP(context.Background(), X, group, HDPOptions{Options: opt, LambdaLocal: 40, LambdaGlobal: lg})
	if err != nil {
		t.Fatal(err)
	}
	if res.K != h.K || res.BPObjective != h.Penalised || res.Objective != h.Objective || res.Lambda2 != 40 {
		t.Fatalf("learner K = %d, %.6g (%.6g), λ² %v; HardHDP K = %d, %.6g (%.6g)", res.K, res.BPObjective, res.Objective, res.Lambda2, h.K, h.Penalised, h.Objective)
	}
	for i := 0; i < n; i++ {
		row := res.Z.RawRowView(i)
		if row[h.Assign[i]] != 1 || floats.Sum(row) != 1 {
			t.Fatalf("row %d: code %v, global cluster %d", i, row, h.Assign[i])
		}
	}
	if !mat.Equal(res.A, h.Means) {
		t.Fatal("A is not the global means")
	}
	proposed, err := HDP(context.Background(), X, learn.Options{Groups: group, Restarts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pl, _ := ProposeHDPLambdas(X, 8, 0, ""); proposed.Lambda2 != pl || !(pl > 0) {
		t.Fatalf("with no λ²: λ_bottom %v, proposed %v", proposed.Lambda2, pl)
	}
}
