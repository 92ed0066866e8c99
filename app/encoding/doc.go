// Package encoding applies a learned analysis to new images: an Encoder keeps the mean
// picture and the pictures of the features in the reading shown, and Encode finds, for
// each new image, the code that best explains it with those features held fixed — the
// Z-step of the learners (MAD-Bayes, Broderick, Kulis & Jordan 2013, Alg. 1 and §3, as
// features.Encode does it: exact up to features.EncodeExactK features) — and says whether the features explain it at all: an image
// whose residual exceeds the training images' 99th percentile is "unexplained".
//
// Encoding works in pixels, not PCA scores: the features' pictures lie in the PCA's span,
// so ‖x − m − zF‖² differs from the scores' ‖s − zA‖² (times the PCA's scale²) by the
// part of x outside that span, the same for every code. The code is therefore the
// learner's, without keeping the P × D components: K + 1 pictures.
package encoding
