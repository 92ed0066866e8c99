// Package jobs words what a background job is doing for the user: a Tracker turns the
// raw counts of a load, a learner's restarts and sweeps, or a segmentation's iterations
// into throttled Progress reports, each with the time left of the whole job. Its clocks
// estimate that time from the work itself: a stepwise run's from the shrinking decreases
// of the K-features objective along the λ² path (Broderick, Kulis & Jordan, MAD-Bayes,
// ICML 2013, §5), the IBP's chains from their sweeps, a KPYP segmentation from how much
// its last iterations changed. It draws nothing and knows no window: the command line and
// the window show what it reports.
package jobs
