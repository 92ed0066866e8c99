// Package segmenting runs the image segmentations for the window and the command line:
// one image segmented by algorithms/segment (the kernel Pitman–Yor process mixture of
// Chatzis, Korkinof & Demiris, "A Nonparametric Bayesian Approach Toward Image
// Segmentation", §3, or K-means / DP-means) with its pictures and output files; the
// evaluation of a segmenter against human ground truth (PRI, variation of information;
// EvalRequest, Evaluate); and co-segmentation of a folder with the hard hierarchical
// Dirichlet process of algorithms/cosegment (Jiang, Kulis & Jordan, "Small-Variance
// Asymptotics for Exponential Family Dirichlet Process Mixture Models", §4).
package segmenting
