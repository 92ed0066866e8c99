// Package result is a finished run and its reading: an Analysis holds the prepared data
// (pipeline.Prepared) and the learner's result, and reads it for the user — each
// feature's picture mapped back through the PCA, whether it adds or removes something
// from the base (the readable form of a MAD-Bayes feature allocation, Broderick, Kulis &
// Jordan, ICML 2013), how much of the data it explains, how cleanly its owners split
// from the rest and how it holds on half the images; the codes; the λ² path of a
// stepwise run and its other K; a clustering's agreement with the folders its images came
// in (NMI, ARI); two results compared. Run, RunOn and Analyze run the pipeline and give
// the Analysis. It draws nothing: app/report and the window show what it reads.
package result
