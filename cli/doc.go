// Package cli is Feature Lab's command line: `featurelab analyze`, `segment`,
// `segment-eval`, `cosegment` and `samples`, and opening the window on a folder or a saved
// analysis. Its flags and their help are built from the algorithms' registry; every error
// is one line on stderr and an exit code, never a panic or a trace.
package cli
