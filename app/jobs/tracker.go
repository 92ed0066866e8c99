package jobs

import (
	"fmt"
	"sync"
	"time"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
)

// Progress is what a background job reports: the stage, how far it is, and the time.
type Progress struct {
	Stage   string        // what is being done, in words: "Loading images", "K-features: restart 40 of 100"
	Done    int           // units finished in this stage
	Total   int           // units in all (0 if unknown)
	Elapsed time.Duration // since the job started
	ETA     time.Duration // estimated time left of the whole job: this stage and those after it (0 if unknown)
	// AtLeast: the ETA is a lower bound, as work whose time nothing tells yet may follow
	// (a second λ² path, decided when the first is counted); the bar's fraction is then
	// at most how far the job is.
	AtLeast bool
	// Worded: the Stage already says how far it is ("chain 2 of 4, sweep 310 of 1000"),
	// so String leaves Done/Total out; they still drive the bar.
	Worded bool
}

// Fraction is how far the whole job is, in [0,1]: the time elapsed over the time
// elapsed and left when the time left is known (it covers the whole job), else
// Done/Total of the stage; −1 when neither is known. A bar that followed the stage went
// from 0 to 100 % once per K of a stepwise run.
func (p Progress) Fraction() float64 {
	if p.ETA > 0 && p.Elapsed > 0 {
		return float64(p.Elapsed) / float64(p.Elapsed+p.ETA)
	}
	if p.Total <= 0 {
		return -1
	}
	f := float64(p.Done) / float64(p.Total)
	return min(max(f, 0), 1)
}

// String renders the progress for a status line: "Loading images 37/100 · 0.8 s · 1.2 s left".
func (p Progress) String() string {
	s := p.Stage
	if p.Total > 0 && !p.Worded {
		s += fmt.Sprintf(" %d/%d", p.Done, p.Total)
	}
	s += " · " + roundDuration(p.Elapsed)
	if p.ETA > 0 {
		at := ""
		if p.AtLeast {
			at = "at least "
		}
		s += " · " + at + roundDuration(p.ETA) + " left"
	}
	return s
}

func roundDuration(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// progressInterval throttles reports: a window redrawn more often than this gains
// nothing, and under software rendering it falls behind (a frame takes tens of
// milliseconds, and the UI loop runs about one posted update per frame).
const progressInterval = 100 * time.Millisecond

// Tracker turns raw counts from workers into Progress reports, at most one per
// progressInterval whatever changes: the first at once, later ones only once the
// interval is up, each with the state at that moment. Stage changes are throttled too:
// a stepwise run changes stage twice per K, dozens of times a second. The report that
// ends the work is the caller's. It is safe for concurrent use because algorithm
// restarts report from several goroutines; it reports on the caller's goroutine only,
// never from a timer, so a window's test driver sees no goroutine it did not start.
type Tracker struct {
	mu         sync.Mutex
	report     func(Progress)
	now        func() time.Time // time.Now; tests step a clock of their own
	start      time.Time
	stage      string
	stageStart time.Time
	last       time.Time // when the last report went out

	// after is the estimated time of the stages that follow this one (the PCA after the
	// load), added to the stage's own time left so that it covers the whole job.
	after      time.Duration
	afterKnown bool // after was set by setAfter; a late guess must not replace it
	// steps, when set, estimates a stepwise run's K still to come (stepwiseClock), while
	// the learner reports (inPath); a phase of the run's own (Phase) is timed by its units.
	steps  *stepwiseClock
	inPath bool
	// reading, when set, estimates the time of what follows a λ² path that stops at K
	// = stop: counting the objects on its fits and reading the chosen one.
	reading func(stop int) time.Duration
	// lead heads the stage of a learner run for another's sake (the IBP's stepwise).
	lead string
	// aside follows the learner's title on its second λ² path (shiftsMatter).
	aside string
	// open is set while stages whose time nothing tells yet may follow this one (the λ²
	// path after the blur, a second path after the counting): a time left would be this
	// stage's alone, so none is given.
	open bool
	// mayFollow is set while work of a time nothing tells yet may follow the stages the
	// time left covers (a second λ² path): the time left is then a lower bound (AtLeast).
	mayFollow bool
	// expectEnd, when set, is when work like some done before should end: the second λ²
	// path and its counting, timed by the first's. The time left is at least what
	// remains of it, from the path's first report, when its own clock knows nothing yet.
	expectEnd time.Time
	// chains follows the IBP's chains, from their first sweep (chainClock).
	chains *chainClock
	// settle follows a KPYP segmentation's iterations (settleClock).
	settle *settleClock
}

func NewTracker(report func(Progress)) *Tracker {
	now := time.Now()
	return &Tracker{report: report, now: time.Now, start: now, stageStart: now}
}

// Update reports that done of total units of stage are finished; the time left is
// the stage's time so far spread over the units, which suits units of a size (restarts,
// sweeps).
func (t *Tracker) Update(stage string, done, total int) {
	t.update(stage, done, total, int64(done), int64(total), false)
}

// Phase reports that a phase of the job begins, of total units (0 if unknown): at once,
// whatever the throttle, so that no phase of a run goes unsaid — a window's status line
// names every one, however short. Its units then go through Update under the same
// stage; the time left is theirs, plus what is set to come after (setAfter).
func (t *Tracker) Phase(stage string, total int) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.stage, t.stageStart, t.last, t.inPath = stage, now, now, false
	eta := t.expected(now, 0)
	t.report(Progress{Stage: stage, Total: total, Elapsed: now.Sub(t.start), ETA: eta, AtLeast: t.mayFollow && eta > 0})
}

// expected is eta, or the time until expectEnd when that is longer; none while the
// tracker is open.
func (t *Tracker) expected(now time.Time, eta time.Duration) time.Duration {
	if t.open {
		return 0
	}
	if t.expectEnd.IsZero() {
		return eta
	}
	return max(eta, t.expectEnd.Sub(now))
}

// Counter is Update of stage as a func of done and total, for a phase's units.
func (t *Tracker) Counter(stage string) func(done, total int) {
	return func(done, total int) { t.Update(stage, done, total) }
}

// updateChains reports the IBP's sweeps: the stage names the chains and sweeps, and the
// time left covers every chain (chainClock).
func (t *Tracker) updateChains(title string, ap learn.Progress) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.chains == nil {
		t.chains = &chainClock{}
	}
	t.chains.observe(ap, now)
	if !t.last.IsZero() && now.Sub(t.last) < progressInterval && ap.Done < ap.Total {
		return
	}
	t.last = now
	p := Progress{Stage: title + ": " + t.chains.stage(), Done: ap.Done, Total: ap.Total, Elapsed: now.Sub(t.start), Worded: true}
	if eta, ok := t.chains.remaining(now); ok && ap.Done < ap.Total {
		p.ETA = eta
	}
	t.report(p)
}

// The least a work-measured estimate (UpdateWork) waits for: a few units and half a
// second. With one file done of a folder decoded by two workers, the other half
// decoded, the rate is half the true one; and the first file of a load also pays for
// opening the folder.
const (
	MinUnitsForTimeLeft = 3
	etaMinTime          = 500 * time.Millisecond
)

// UpdateWork is Update for units of different sizes, such as the files of a load: done
// of total units are counted in the report, but the time left follows work of
// totalWork (the bytes of the files), at the rate measured over the stage so far, and
// is given only once MinUnitsForTimeLeft units and etaMinTime are behind. Counting files alone
// would be far off for a load of small pictures after large ones, or of files skipped
// at once; a totalWork of 0 (sizes unknown) falls back to the units.
func (t *Tracker) UpdateWork(stage string, done, total int, work, totalWork int64) {
	if totalWork <= 0 {
		work, totalWork = int64(done), int64(total)
	}
	t.update(stage, done, total, work, totalWork, true)
}

func (t *Tracker) update(stage string, done, total int, work, totalWork int64, measured bool) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if stage != t.stage {
		t.stage, t.stageStart = stage, now
	}
	if !t.last.IsZero() && now.Sub(t.last) < progressInterval {
		return
	}
	t.last = now
	p := Progress{Stage: stage, Done: done, Total: total, Elapsed: now.Sub(t.start)}
	elapsed := now.Sub(t.stageStart)
	enough := !measured || (done >= MinUnitsForTimeLeft && elapsed >= etaMinTime)
	if total > 0 && done > 0 && done < total && enough {
		if work > 0 && work < totalWork {
			p.ETA = time.Duration(float64(elapsed)*float64(totalWork-work)/float64(work)) + t.after
		}
		if t.steps != nil && t.inPath {
			// A stepwise run's time left includes its K still to come; until two are
			// done nothing tells how many there will be, and a figure for this K alone
			// misleads.
			var stop int
			var ok bool
			if p.ETA, stop, ok = t.steps.remaining(now, done, total); ok && t.reading != nil {
				p.ETA += t.reading(stop)
			}
		}
	}
	if done < total || total <= 0 || t.open {
		p.ETA = t.expected(now, p.ETA)
	}
	p.AtLeast = t.mayFollow && p.ETA > 0
	// Reporting under the lock keeps reports in order and the callback free of races;
	// callbacks only hand the value on (fyne.Do, a print), so the lock is held briefly.
	t.report(p)
}

// FollowSteps starts a stepwise clock, for a λ² path at lambda2 (0: chosen along the
// way), that estimates the time left from the K the learner reports, and sets the lead
// that heads the stages of a learner run for another's sake ("" for none).
func (t *Tracker) FollowSteps(lambda2 float64, lead string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.steps, t.lead = &stepwiseClock{lambda2: lambda2}, lead
}

// EndSteps removes the stepwise clock and the lead FollowSteps set.
func (t *Tracker) EndSteps() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.steps, t.lead = nil, ""
}

// SecondPath marks the stages of a learner's second λ² path, fitted with the small
// shifts taken out: its title says so, and a stepwise clock starts again, since the
// path walks K from 1 again. like is how long the first path took (its count of objects
// reads only what could beat it, seldom as long): the
// time left stays at least what the second has left of that, until it is counted
// (expectEnd). The returned func ends the title's mark.
func (t *Tracker) SecondPath(like time.Duration) (end func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.aside = ", again with small shifts taken out"
	if t.steps != nil {
		t.steps = &stepwiseClock{lambda2: t.steps.lambda2}
	}
	t.open = false
	if like > 0 {
		t.expectEnd = t.now().Add(like)
	}
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.aside = ""
	}
}

// SetOpen says whether stages of unknown time may follow the current one (Tracker.open).
func (t *Tracker) SetOpen(open bool) {
	t.mu.Lock()
	t.open = open
	t.mu.Unlock()
}

// SetMayFollow says whether work of a time nothing tells yet may follow what the time
// left covers (Tracker.mayFollow): a λ² path whose count of objects decides whether a
// second path runs.
func (t *Tracker) SetMayFollow(may bool) {
	t.mu.Lock()
	t.mayFollow = may
	t.mu.Unlock()
}

// Counted ends what secondPath expects: the second path's objects are counted.
func (t *Tracker) Counted() {
	t.mu.Lock()
	t.expectEnd = time.Time{}
	t.mu.Unlock()
}

// SetReading sets (nil removes) the estimate of what follows a λ² path (Tracker.reading).
func (t *Tracker) SetReading(f func(stop int) time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reading = f
}

// SetAfter sets the estimated time of the stages still to come after the current one.
func (t *Tracker) SetAfter(d time.Duration) {
	t.mu.Lock()
	t.after, t.afterKnown = d, true
	t.mu.Unlock()
}

// GuessAfter is setAfter for an early guess, which a setAfter made before it arrived
// overrides.
func (t *Tracker) GuessAfter(d time.Duration) {
	t.mu.Lock()
	if !t.afterKnown {
		t.after = d
	}
	t.mu.Unlock()
}

// Algorithm words an algorithm's progress for the user.
func (t *Tracker) Algorithm(alg *algorithms.Algorithm, ap learn.Progress) {
	if t.steps != nil {
		t.mu.Lock()
		t.steps.observe(ap, t.now())
		t.mu.Unlock()
	}
	title := alg.Title
	t.mu.Lock()
	title = t.lead + title + t.aside
	t.inPath = true
	t.open = false // the learner's clock covers its run and what is set to follow it
	t.mu.Unlock()
	switch ap.Stage {
	case "K":
		if ap.K == 1 {
			// A λ² path begins: a phase of the run, reported whatever the throttle.
			t.mu.Lock()
			t.last = time.Time{}
			t.mu.Unlock()
		}
		t.Update(fmt.Sprintf("%s: trying K = %d", title, ap.K), ap.Done, ap.Total)
	case "restart":
		if ap.K > 0 && alg.StepsK() {
			of := ""
			if t.steps != nil {
				t.mu.Lock()
				if _, stop, ok := t.steps.remaining(t.now(), 0, 0); ok && stop > ap.K {
					of = fmt.Sprintf(" of about %d", stop)
				}
				t.mu.Unlock()
			}
			t.Update(fmt.Sprintf("%s: K = %d%s, restart", title, ap.K, of), ap.Done, ap.Total)
		} else {
			t.Update(title+": restart", ap.Done, ap.Total)
		}
	case "sweep":
		if ap.Chain > 0 {
			t.updateChains(title, ap)
			return
		}
		t.Update(title+": sweep", ap.Done, ap.Total)
	default:
		t.Update(title+": "+ap.Stage, ap.Done, ap.Total)
	}
}
