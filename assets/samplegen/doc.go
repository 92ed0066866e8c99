// Package samplegen renders Feature Lab's built-in sample data sets in memory.
//
// Each set is a small collection of images whose latent binary features are known by
// construction, so the learners can be checked against the truth: tabletop scenes with
// four objects present or absent at fixed places, the 14×14 'dice' pips pictures of the
// MAD-Bayes paper (Broderick, Kulis & Jordan 2013), the 6×6 'tetris' blocks of the IBP
// literature stored losslessly as PFM float maps, the ace to ten of hearts with their
// standard pip layouts, and simple synthetic faces with four traits.
//
// Everything is deterministic: fixed seeds, no dependence on map order, and the standard
// library's deterministic PNG and JPEG encoders, so rendering twice gives byte-identical
// files. The program in assets/generate writes the sets to assets/samples, where they are
// embedded into the binary; a test there checks that the files and this package never drift.
//
// Shapes are drawn from signed distance fields: a pixel's coverage is how far inside the
// shape its centre lies, clamped to one pixel, which antialiases edges at any scale without
// supersampling.
package samplegen
