// Package app is what the window keeps open between clicks — the session (the prepared
// data set and the latest result of every algorithm, app.Session) — and the window's
// flows (Load, Run, PathAt, OtherReading, Apply, Segment), each the whole of what a click
// starts, from the request to the presentation the window draws. The work itself lives
// in the subpackages — jobs (background work with cancel, and the progress it reports),
// pipeline (load → PCA → learner), saved (saved analyses and the result's
// JSON), report (feature grid, plots, codes CSV, what the window shows of a result) and
// segmenting (one image's segmentation, its evaluation, co-segmentation). It never draws
// widgets; views/ does that, and the headless command line (cli) uses the same
// subpackages.
package app
