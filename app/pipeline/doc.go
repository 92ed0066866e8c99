// Package pipeline runs an analysis from data to result: a Request names the images
// (Source: a folder or a built-in sample) and how to load them, Prepare loads them,
// projects them by PCA and describes them (PCA scores, colour histograms or visual
// words), and Prepared.Run fits a learner from algorithms, giving an Analysis. Around
// that it keeps the memory budget of a load, reports each stage through a jobs.Tracker,
// proposes λ² by the farthest-first heuristic of Kulis & Jordan, puts a least-squares
// result in its readable form (a base every image owns), walks the stepwise λ² path, scores a clustering against the subfolders the images came
// in (NMI, ARI) and compares two results on the same data. It reads no saved file and
// draws nothing: app/saved and app/report build on it.
package pipeline
