// Package app is the bridge between the numerics and the window: it loads data sets (from
// folders or the built-in samples), runs the pipeline load → PCA → algorithm in the
// background with progress and cancel, keeps the session's state, writes the exports
// (feature grid PNG, codes CSV, result JSON), and saves an analysis to reopen it later.
// It never draws widgets; views/ does that, and the headless command line uses the same
// functions.
package app
