// Package app is the session API the window reads, and the only package of the module
// it reads besides the learners' registry (algorithms) and the ground (assets,
// internal/about):
//
//   - what the window keeps open between clicks: the prepared data set and the latest
//     result of every algorithm (Session);
//   - the window's flows (Load, Run, PathAt, OtherReading, Apply, Segment, Cosegment),
//     each the whole of what a click starts, from the request to the presentation the
//     window draws;
//   - the values the window holds (values.go: Source, Prepared, Analysis, Presentation,
//     SavedAnalysis, Segmentation, Progress…) and what it shows and writes of them
//     (present.go: the texts, plots and exports), each the subpackage's own.
//
// The work itself lives in the subpackages — jobs (background work with cancel, and the
// progress it reports), pipeline (load → PCA → learner), result (a run read as a scene),
// saved (saved analyses and the result's JSON), report (feature grid, plots, codes CSV,
// what the window shows of a result), encoding (new pictures coded with a saved
// analysis) and segmenting (one image's segmentation, its evaluation, co-segmentation).
// It never draws widgets; views/ does that. The headless command line (cli) uses the
// subpackages directly.
package app
