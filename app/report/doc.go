// Package report renders results: the feature grid PNG (in the style of the MAD-Bayes
// paper's Fig. 2: sample images, then every feature mapped back to pixels), the codes
// CSV, the plots (explained variance, objective against K, restarts, traces, K
// histogram, a segmentation's bound), the outputs a run writes into a folder
// (WriteOutputs: features.png, codes.csv, result.json) and the Presentation — everything
// the window shows of an analysis, computed once on the background job.
package report
