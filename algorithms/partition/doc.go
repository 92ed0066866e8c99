// Package partition compares two partitions of the same items — the pixels of two
// segmentations, the images of two clusterings, a clustering and the subfolders the
// images came in — by counts from their contingency table: the Rand index (Rand 1971) and
// its probabilistic form against several references (Unnikrishnan, Pantofaru & Hebert
// 2007), the variation of information (Meilă 2007), the normalised mutual information
// (Strehl & Ghosh 2002), which the exponential-family DP-means paper reports for image
// clustering (Jiang, Kulis & Jordan, NIPS 2012, §5), and the
// adjusted Rand index (Hubert & Arabie 1985).
package partition
