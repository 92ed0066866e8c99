// Package describe makes what a clustering learner can read of each image instead of its
// PCA scores: a colour histogram, or a bag of visual words — dense gradient-orientation
// descriptors quantised by K-means into a vocabulary learned on the folder (Sivic &
// Zisserman, Video Google, ICCV 2003; Csurka et al., Visual categorization with bags of
// keypoints, 2004). Both are rows of non-negative frequencies, which the exponential-
// family learners of the MAD-Bayes paper (DP-means under the KL or I-divergence) need.
package describe
