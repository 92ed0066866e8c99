package samplegen

import "fmt"

// Simple synthetic faces: the same oval face with eyes and nose in every picture, and four
// traits each present with probability ½: glasses, a smile (instead of a straight mouth),
// a beard and a hat. The traits are drawn at fixed places that do not overlap one another
// (the beard leaves room around the mouth, the hat's brim stays above the glasses), so each
// picture is the base face plus the sum of its traits' effects, plus a little noise.
const (
	facesN     = 80
	faceSize   = 64
	facesNoise = 3.0 / 255
	facesSeed  = 5
)

var facesFeatures = []string{"glasses", "smile", "beard", "hat"}

// Faces renders 80 grey 64×64 PNG pictures named face_01.png … face_80.png; every one of
// the 16 combinations of the traits occurs.
func Faces() Set {
	rng := newRand(facesSeed)
	codes := coveringCodes(rng, facesN, len(facesFeatures), 0.5)
	base := faceBase()
	set := Set{Name: "faces", FeatureNames: facesFeatures}
	for n, code := range codes {
		c := base.clone()
		glasses, smile, beard, hat := code[0], code[1], code[2], code[3]
		if beard {
			chin := intersect(ellipse(32, 35, 19, 24), halfPlane(0, 43, 1, 0, 0, 43, 64, 64))
			c.fill(subtract(chin, ellipse(32, 47.5, 10, 5)), grey(0.32), 1)
		}
		if smile {
			var pts []float64
			for i := 0; i <= 12; i++ {
				u := float64(i)/6 - 1
				pts = append(pts, 32+7*u, 45.5+3.5*(1-u*u))
			}
			c.fill(stroke(1, pts...), grey(0.25), 1)
		} else {
			c.fill(capsule(26, 47, 38, 47, 1), grey(0.25), 1)
		}
		if glasses {
			c.fill(union(
				ring(25, 31, 5.5, 0.9), ring(39, 31, 5.5, 0.9),
				capsule(30.5, 30.5, 33.5, 30.5, 0.8),
				capsule(19.5, 30, 14.5, 29, 0.8), capsule(44.5, 30, 49.5, 29, 0.8),
			), grey(0.1), 1)
		}
		if hat {
			c.fill(union(roundRect(32, 10, 13, 7, 3), roundRect(32, 17.5, 21, 2.2, 2)), grey(0.18), 1)
			c.fill(roundRect(32, 14.2, 13, 1.3, 0.5), grey(0.45), 1)
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
