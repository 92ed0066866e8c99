// Package scenes builds folders like a user's camera folder, with the truth known: a real
// photo as the scene and objects that come and go on it — cards, a shadow darker than the
// scene under it, a patch of colour, a lamp's light with no edge — each in its own share of the pictures, under
// exposure changes, a pixel of jitter and JPEG. The tests and scripts/scenes check on
// them that a learner's answer reads as the scene does: the empty scene as the base, one
// feature per object, owned by the pictures that show it (MAD-Bayes §5.1's tabletop
// reading, on folders built to break it).
package scenes
