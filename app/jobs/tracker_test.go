package jobs

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
)

func TestProgress(t *testing.T) {
	tests := []struct {
		p        Progress
		fraction float64
		contains []string
	}{
		{Progress{Stage: "Loading images", Done: 25, Total: 100, Elapsed: 1500 * time.Millisecond, ETA: 4500 * time.Millisecond},
			0.25, []string{"Loading images 25/100", "1.5 s", "4.5 s left"}},
		{Progress{Stage: "K = 3, restart", Done: 90, Total: 100, Elapsed: 10 * time.Second, ETA: 30 * time.Second},
			0.25, []string{"K = 3, restart 90/100", "30s left"}}, // the job's fraction, not the stage's
		{Progress{Stage: "Loading images", Done: 25, Total: 100}, 0.25, []string{"Loading images 25/100"}},
		{Progress{Stage: "Computing PCA", Elapsed: 12 * time.Second}, -1, []string{"Computing PCA · 12s"}},
		{Progress{Stage: "x", Done: 5, Total: 4}, 1, []string{"x 5/4"}},
		{Progress{Stage: "K = 9, restart", Done: 5, Total: 10, Elapsed: 3 * time.Second, ETA: time.Second, AtLeast: true},
			0.75, []string{"at least 1.0 s left"}},
	}
	for _, tt := range tests {
		if got := tt.p.Fraction(); got != tt.fraction {
			t.Errorf("%+v: Fraction = %v, want %v", tt.p, got, tt.fraction)
		}
		for _, c := range tt.contains {
			if !strings.Contains(tt.p.String(), c) {
				t.Errorf("%q does not contain %q", tt.p.String(), c)
			}
		}
	}
}

// TestTrackerThrottles checks the tracker's contract with the window on a clock the test
// steps: the first report at once; within the interval nothing, stage changes
// included; after it, one report with the state of that moment.
func TestTrackerThrottles(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	for i := 0; i <= 1000; i++ {
		tr.Update("a", i, 1000)
	}
	tr.Update("b", 0, 10)
	if len(got) != 1 || got[0].Stage != "a" || got[0].Done != 0 {
		t.Fatalf("reports %+v, want only the first within the interval", got)
	}
	clock = clock.Add(progressInterval / 2)
	tr.Update("b", 4, 10)
	clock = clock.Add(progressInterval / 2)
	tr.Update("b", 5, 10)
	tr.Update("b", 6, 10)
	if len(got) != 2 || got[1].Stage != "b" || got[1].Done != 5 {
		t.Fatalf("reports %+v, want one more once the interval is up: b 5/10", got)
	}
	if got[1].ETA != progressInterval {
		t.Errorf("ETA %v: 5 of 10 done in %v since stage b began", got[1].ETA, progressInterval)
	}
}

// TestTrackerCountsTheStagesAfter: a load's time left includes the PCA that follows it;
// an early guess of it gives way to the estimate made once the images' size is known,
// even when the guess arrives late.
func TestTrackerCountsTheStagesAfter(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	step := func(done int) time.Duration {
		clock = clock.Add(time.Second)
		tr.last = time.Time{}
		tr.Update("Loading images", done, 10)
		return got[len(got)-1].ETA
	}
	tr.Update("Loading images", 0, 10)
	tr.GuessAfter(20 * time.Second)
	if eta := step(1); eta != 29*time.Second {
		t.Errorf("1 of 10 in 1 s with a 20 s PCA to follow: %v left", eta)
	}
	tr.SetAfter(5 * time.Second)
	tr.GuessAfter(20 * time.Second) // late
	if eta := step(2); eta != 13*time.Second {
		t.Errorf("2 of 10 in 2 s with a 5 s PCA to follow: %v left", eta)
	}
}

// TestSweepsSayTheirChains: the IBP's progress names the chains running and their sweep
// out of the Sweeps field's, not 310/4000 of all the chains' sweeps.
func TestSweepsSayTheirChains(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	sweep := func(chain, s, done int) string {
		clock = clock.Add(time.Millisecond)
		tr.last = time.Time{}
		tr.Algorithm(algorithms.MustLookup("ibp"), learn.Progress{Stage: "sweep", Done: done, Total: 4000, Chains: 4, Chain: chain, Sweep: s})
		return got[len(got)-1].String()
	}
	sweep(1, 1, 1)
	sweep(2, 1, 2)
	if s := sweep(1, 2, 3); !strings.HasPrefix(s, "IBP Gibbs sampler: chains 1–2 of 4, sweep 1 of 1000 · ") {
		t.Errorf("two chains side by side: %q", s)
	}
	for s := 2; s <= 1000; s++ {
		sweep(2, s, 2+s)
	}
	if s := sweep(1, 3, 1003); !strings.HasPrefix(s, "IBP Gibbs sampler: chain 1 of 4, sweep 3 of 1000 · ") {
		t.Errorf("chain 2 done, chain 1 alone: %q", s)
	}
	if s := sweep(3, 1, 1004); !strings.HasPrefix(s, "IBP Gibbs sampler: chains 1, 3 of 4, sweep 1 of 1000 · ") {
		t.Errorf("chains 1 and 3: %q", s)
	}
}

// TestSecondPathSaysSo: while a learner walks its second λ² path, with the small shifts
// taken out (shiftsMatter), the status says so — the path starts from K = 1 again, which
// would otherwise read as the run starting over — and, under the IBP, after the lead that
// says what stepwise is run for.
func TestSecondPathSaysSo(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	stage := func() string {
		tr.last = time.Time{}
		tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", K: 1, Total: 30})
		return got[len(got)-1].Stage
	}
	tr.FollowSteps(0, "IBP Gibbs sampler, pricing a feature with ")
	end := tr.SecondPath(0)
	if s := stage(); s != "IBP Gibbs sampler, pricing a feature with Stepwise K-features, again with small shifts taken out: trying K = 1" {
		t.Errorf("second path: %q", s)
	}
	end()
	tr.EndSteps()
	if s := stage(); s != "Stepwise K-features: trying K = 1" {
		t.Errorf("after it: %q", s)
	}
}

// TestChainsTimeLeftIsHonest replays an IBP run on a clock the test steps: 4 chains of
// 1000 sweeps on 2 workers, a sweep's cost growing as the chain's features do — not at
// all, to a plateau (K settles), or without end (K keeps growing, 4× by the last sweep).
// Once a tenth of the run is behind, the time left must stay within a factor of 2 of the
// truth. The old count (all sweeps at the average rate) said under half the truth on
// the growing chains.
func TestChainsTimeLeftIsHonest(t *testing.T) {
	const chains, sweeps, workers = 4, 1000, 2
	for _, tc := range []struct {
		name string
		cost func(s int) time.Duration // the s-th sweep of a chain (0-based)
	}{
		{"flat", func(int) time.Duration { return time.Millisecond }},
		{"plateau", func(s int) time.Duration {
			return time.Duration(float64(time.Millisecond) * (1 + 5*(1-math.Exp(-float64(s)/150))))
		}},
		{"growing", func(s int) time.Duration {
			return time.Duration(float64(time.Millisecond) * (1 + 3*float64(s)/sweeps))
		}},
	} {
		// The run's events: each worker runs its chains one after the other.
		type event struct {
			at           time.Duration
			chain, sweep int
		}
		var events []event
		for w := 0; w < workers; w++ {
			var at time.Duration
			for c := w; c < chains; c += workers {
				for s := 0; s < sweeps; s++ {
					at += tc.cost(s)
					events = append(events, event{at, c + 1, s + 1})
				}
			}
		}
		slices.SortStableFunc(events, func(a, b event) int { return cmp.Compare(a.at, b.at) })
		end := events[len(events)-1].at
		var got []Progress
		tr := NewTracker(func(p Progress) { got = append(got, p) })
		start := tr.start
		var worst, worstOld float64 = 1, 1
		var reports int
		for i, e := range events {
			tr.now = func() time.Time { return start.Add(e.at) }
			tr.last = time.Time{}
			tr.Algorithm(algorithms.MustLookup("ibp"), learn.Progress{Stage: "sweep", Done: i + 1, Total: chains * sweeps, Chains: chains, Chain: e.chain, Sweep: e.sweep})
			if e.at < end/10 || i%50 != 0 || e.at == end {
				continue
			}
			eta, left := got[len(got)-1].ETA, end-e.at
			ratio := float64(eta) / float64(left)
			if ratio < 0.5 || ratio > 2 {
				t.Errorf("%s: at %v of %v, %v left said, %v true", tc.name, e.at, end, eta, left)
			}
			if r := max(ratio, 1/ratio); r > worst {
				worst = r
			}
			old := float64(e.at) * float64(chains*sweeps-i-1) / float64(i+1) / float64(left)
			worstOld = max(worstOld, old, 1/old)
			reports++
		}
		t.Logf("%s: %d reports past the first tenth, the worst %.2f× off (the average rate: %.2f×)", tc.name, reports, worst, worstOld)
	}
}

// TestLoadTimeLeftIsHonest runs loads on a clock the test steps: two workers decode
// files whose time is their size over a rate, plus a little per file, and every
// completion is reported as the loader does (UpdateWork, with the bytes). Once a tenth
// of the load is behind, the time left must stay within a factor of 2 of the truth;
// before the first few files and half a second, none is given. Counting files, the
// folder of small pictures then large ones said 20 times too little, and the one of
// large then small tens of times too much.
func TestLoadTimeLeftIsHonest(t *testing.T) {
	const kB, MB = 1 << 10, 1 << 20
	repeat := func(n int, size int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = size
		}
		return s
	}
	rng := rand.New(rand.NewPCG(3, 6))
	mixed := make([]int64, 500)
	for i := range mixed {
		mixed[i] = 10*kB + rng.Int64N(4*MB)
		if rng.IntN(10) == 0 {
			mixed[i] = 40 // a text file, skipped at once
		}
	}
	tests := []struct {
		name    string
		sizes   []int64
		perByte time.Duration // per MB decoded
		perFile time.Duration
	}{
		{"400 faces of 10 kB", repeat(400, 10*kB), 20 * time.Millisecond, 4 * time.Millisecond},
		{"40 camera JPEGs of 5 MB", repeat(40, 5*MB), 60 * time.Millisecond, time.Millisecond},
		{"300 small, then 20 large", append(repeat(300, 10*kB), repeat(20, 2*MB)...), 100 * time.Millisecond, time.Millisecond},
		{"20 large, then 300 small", append(repeat(20, 2*MB), repeat(300, 10*kB)...), 100 * time.Millisecond, time.Millisecond},
		{"500 of any size, some skipped", mixed, 50 * time.Millisecond, time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Progress
			tr := NewTracker(func(p Progress) { got = append(got, p) })
			start := tr.start
			clock := start
			tr.now = func() time.Time { return clock }
			// When each file is done: two workers, each taking the next file when free.
			var total int64
			for _, s := range tt.sizes {
				total += s
			}
			free := []time.Duration{0, 0}
			ends := make([]time.Duration, len(tt.sizes))
			for i, s := range tt.sizes {
				w := 0
				if free[1] < free[0] {
					w = 1
				}
				free[w] += tt.perFile + time.Duration(float64(tt.perByte)*float64(s)/MB)
				ends[i] = free[w]
			}
			// Reported in the order they finish.
			order := make([]int, len(tt.sizes))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ends[a], ends[b]) })
			finish := ends[order[len(order)-1]]
			var bytes int64
			shown := 0
			for done, i := range order {
				bytes += tt.sizes[i]
				at := ends[i]
				clock = start.Add(at)
				tr.last = time.Time{} // every completion reported: the throttle is another test's
				tr.UpdateWork("Loading images", done+1, len(tt.sizes), bytes, total)
				eta, left := got[len(got)-1].ETA, finish-at
				if eta == 0 {
					continue
				}
				shown++
				if done+1 < MinUnitsForTimeLeft || at < etaMinTime {
					t.Fatalf("%d files and %v in: %v left shown", done+1, at, eta)
				}
				// In the last half second the files still to come are in flight, partly
				// decoded, and a factor means little: there the error must stay under a
				// quarter of a second.
				off := eta > 2*left || eta < left/2
				if left < etaMinTime {
					off = (eta - left).Abs() > etaMinTime/2
				}
				if at >= finish/10 && off {
					t.Errorf("%d/%d files at %v: %v left, truly %v", done+1, len(tt.sizes), at, eta, left)
				}
			}
			if shown == 0 {
				t.Errorf("no time left shown in a load of %v", finish)
			}
		})
	}
}

// TestSecondPathTimeLeft: from its first report, the second λ² path's time left is at
// least what remains of the first path's time and its counting, though its own clock knows
// nothing yet; it follows the units again once the second path's objects are counted.
func TestSecondPathTimeLeft(t *testing.T) {
	var got []Progress
	clock := time.Unix(0, 0)
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	tr.now = func() time.Time { return clock }
	tr.FollowSteps(0, "")
	end := tr.SecondPath(10 * time.Second)
	tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", K: 1, Total: 30})
	if eta := got[len(got)-1].ETA; eta != 10*time.Second {
		t.Errorf("second path begins: %v left, want 10s", eta)
	}
	clock = clock.Add(4 * time.Second)
	tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", K: 2, Done: 1, Total: 30})
	if eta := got[len(got)-1].ETA; eta < 6*time.Second {
		t.Errorf("4 s in: %v left, want at least 6s", eta)
	}
	end()
	clock = clock.Add(5 * time.Second)
	tr.Phase("Counting the objects on each K, small shifts taken out", 0)
	if eta := got[len(got)-1].ETA; eta != time.Second {
		t.Errorf("counting begins 9 s in: %v left, want 1s", eta)
	}
	tr.Counted()
	clock = clock.Add(2 * time.Second)
	tr.Phase("Checking each feature on half the images", 0)
	if eta := got[len(got)-1].ETA; eta != 0 {
		t.Errorf("counted: %v left, want none", eta)
	}
}

// TestOpenTrackerGivesNoTimeLeft: while stages of unknown time may follow (the blur
// before the λ² path, the counting before a second path), a stage's units give no time
// left, which would be that stage's alone; the learner's first report closes it.
func TestOpenTrackerGivesNoTimeLeft(t *testing.T) {
	var got []Progress
	clock := time.Unix(0, 0)
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	tr.now = func() time.Time { return clock }
	units := func(stage string) time.Duration {
		clock = clock.Add(time.Second)
		tr.Update(stage, 1, 4)
		return got[len(got)-1].ETA
	}
	tr.SetOpen(true)
	tr.Phase("Seeing the pictures through a slight blur", 4)
	if eta := units("Seeing the pictures through a slight blur"); eta != 0 {
		t.Errorf("open: %v left, want none", eta)
	}
	tr.Algorithm(algorithms.MustLookup("kfeatures"), learn.Progress{Stage: "restart", Done: 1, Total: 4})
	if eta := units("K-features: restart"); eta != 3*time.Second {
		t.Errorf("after the learner's first report: %v left, want 3s", eta)
	}
}

// TestTimeLeftIsALowerBoundWhileMoreMayFollow: while work of a time nothing tells yet may
// follow (SetMayFollow), every time left is marked a lower bound and says so; after, none is.
func TestTimeLeftIsALowerBoundWhileMoreMayFollow(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	step := func(done int) Progress {
		clock = clock.Add(time.Second)
		tr.last = time.Time{}
		tr.Update("K = 3, restart", done, 10)
		return got[len(got)-1]
	}
	tr.SetMayFollow(true)
	step(2) // the stage's first report: nothing timed yet
	if p := step(5); p.ETA <= 0 || !p.AtLeast || !strings.Contains(p.String(), "at least") {
		t.Errorf("with more to follow: %+v, %q", p, p.String())
	}
	tr.SetMayFollow(false)
	if p := step(6); p.ETA <= 0 || p.AtLeast || strings.Contains(p.String(), "at least") {
		t.Errorf("with nothing more to follow: %+v, %q", p, p.String())
	}
}
