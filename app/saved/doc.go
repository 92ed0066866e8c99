// Package saved holds a result in JSON: the Summary `featurelab analyze --json` prints
// and the full result.json (FullResultOf), and saved analyses — Save writes an analysis
// with the load options its data were prepared with to a .featurelab file, Open reads
// one back and Analysis.Restore puts its result on the data prepared again, refusing
// (ErrFolderChanged) when the folder is not what it was. A saved file holds its result
// as result.json does, the same FullResult, and beside it only what reopening needs that
// result.json does not say (file.go); files of the earlier shape are read too
// (filev1.go). Floats outside the result that can be NaN or ±Inf are written so that
// they read back exactly (jsonfloat.go).
package saved
