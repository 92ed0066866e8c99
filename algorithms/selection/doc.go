// Package selection chooses K for the feature learners that walk a λ² path (stepwise
// K-features, BP-means), by counting the objects on the scene: the largest K of the path
// whose features, in their readable form (a base every image owns, each feature adding
// something to it), each read as one thing that comes and goes — clearly owned or not
// (features.Separation), and no two of them one object seen twice. The fits are read
// through the pictures behind the scores (Pictures, which the PCA provides): seen through
// a slight blur, and where a card's one-pixel jitter takes features, with each feature's
// small shifts modelled as a nuisance. The λ² path itself is the MAD-Bayes limit of the
// IBP (Broderick, Kulis & Jordan, ICML 2013, §3–5); reading its K as objects is this
// product's, measured on generated scene folders (docs/DESIGN.md).
package selection
