package samplegen

import "fmt"

// Simple synthetic faces: the same oval face with eyes and nose in every picture, and four
// traits each present with probability ½: glasses, a smile (instead of a straight mouth),
// a beard and a hat. The traits are drawn at fixed places that do not overlap one another
// (the beard leaves room around the mouth, the hat's brim stays above the glasses), so each
// picture is the base face plus the sum of its traits' effects, plus a little noise. As
// for the tabletop, the traits' effects have similar energies and each is present with
// probability 0.4 in a balanced draw, so that K-features can find them (all 80 codes
// recovered at K = 5 by the best of 100 restarts).
const (
	facesN     = 80
	faceSize   = 64
	facesP     = 0.4
	facesNoise = 3.0 / 255
	facesSeed  = 5
)

var facesFeatures = []string{"glasses", "smile", "beard", "hat"}

// Faces renders 80 grey 64×64 PNG pictures named face_01.png … face_80.png; every one of
// the 16 combinations of the traits occurs.
func Faces() Set {
	rng := newRand(facesSeed)
	codes := coveringCodes(rng, facesN, len(facesFeatures), facesP)
	base := faceBase()
	set := Set{Name: "faces", FeatureNames: facesFeatures}
	for n, code := range codes {
		c := base.clone()
		for j, on := range code {
			drawTrait(c, j, on)
		}
		c.addNoise(rng, facesNoise)
		set.Images = append(set.Images, Image{
			Name: fmt.Sprintf("face_%02d.png", n+1),
			Data: encodePNG(c.gray()),
			Code: codeString(code),
		})
	}
	return set
}

// drawTrait draws trait j of facesFeatures, or what the face has without it (only the
// smile has an alternative, the straight mouth).
func drawTrait(c *canvas, j int, on bool) {
	switch {
	case j == 0 && on: // glasses
		c.fill(union(
			ring(25, 31, 5.5, 0.75), ring(39, 31, 5.5, 0.75),
			capsule(30.5, 30.5, 33.5, 30.5, 0.8),
			capsule(19.5, 30, 14.5, 29, 0.8), capsule(44.5, 30, 49.5, 29, 0.8),
		), grey(0.2), 1)
	case j == 1 && on: // smile: an open grin, a dark half-moon under a curved lip
		var pts []float64
		for i := 0; i <= 12; i++ {
			u := float64(i)/6 - 1
			pts = append(pts, 32+8.5*u, 45+6.5*(1-u*u))
		}
		c.fill(intersect(ellipse(32, 45, 9, 7), below(45, 20, 44, 53)), grey(0.15), 1)
		c.fill(stroke(0.9, pts...), grey(0.25), 1)
	case j == 1: // a straight mouth
		c.fill(capsule(26, 47, 38, 47, 1), grey(0.25), 1)
	case j == 2 && on: // beard: the face below the nose, leaving room around the mouth
		chin := intersect(ellipse(32, 35, 19, 24), below(43, 0, 64, 64))
		c.fill(subtract(chin, ellipse(32, 47.5, 12.5, 6.5)), grey(0.45), 1)
	case j == 3 && on: // hat, its brim above the eyebrows
		c.fill(union(roundRect(32, 10, 12, 7, 3), roundRect(32, 17.5, 20, 2.2, 2)), grey(0.28), 1)
		c.fill(roundRect(32, 14.2, 12, 1.3, 0.5), grey(0.5), 1)
	}
}

// faceBase is the face every picture shares: background, ears, neck, the oval face, eyes,
// eyebrows and nose.
func faceBase() *canvas {
	c := newCanvas(faceSize, faceSize, 1, grey(0.38))
	skin, shade := grey(0.80), grey(0.70)
	c.fill(roundRect(32, 62, 8, 8, 3), shade, 1)
	c.fill(ellipse(13.5, 35, 2.8, 5), shade, 1)
	c.fill(ellipse(50.5, 35, 2.8, 5), shade, 1)
	c.fill(ellipse(32, 35, 19, 24), skin, 1)
	c.fill(circle(25, 31, 2.2), grey(0.12), 1)
	c.fill(circle(39, 31, 2.2), grey(0.12), 1)
	c.fill(capsule(21.5, 23, 28, 22.3, 0.8), grey(0.35), 1)
	c.fill(capsule(36, 22.3, 42.5, 23, 0.8), grey(0.35), 1)
	c.fill(stroke(0.7, 32, 33, 30.5, 40, 33, 40.5), grey(0.55), 1)
	return c
}
