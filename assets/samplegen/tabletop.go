package samplegen

import (
	"fmt"
	"math"
)

// Tabletop scenes: a wooden table top under a wall, lit by the same soft light in every
// picture, with four objects each present or absent at its own fixed place. What varies
// between pictures is only which objects are there, a jitter of at most tabletopJitter
// pixels in their placement, and sensor noise — so the data are a base image plus four
// additive features, as in Griffiths & Ghahramani's tabletop photographs.
//
// The numbers are chosen so that stepwise K-features on PCA scores finds the truth (checked
// with a reference implementation of K-features (MAD-Bayes §3), 100 restarts per K):
//   - the objects do not overlap, even with their shadows and the jitter;
//   - their effects have similar energies (within a factor of two, in colour and in grey):
//     a weak feature beside a strong one is a trap for K-means++-style initialisation;
//   - each object is present with probability 0.4 rather than ½, and the draw is redrawn
//     until the sample frequencies and correlations are close to the design (coveringCodes):
//     both raise the share of restarts that reach the global optimum severalfold;
//   - the jitter is ±1 pixel: at ±2 the misregistered edges are much of the residual,
//     and the K = 5 → 6 drop of the objective exceeds λ² = 20.
//
// With this, the best of 100 restarts gives an objective that falls steeply up to K = 5
// and little after it (colour, PCA to 99 dimensions), and recovers all 100 codes at
// K = 5 (docs/DESIGN.md, "Measurements behind the code").
const (
	tabletopN      = 100
	tabletopW      = 320
	tabletopH      = 240
	tableEdge      = 76  // y of the table's back edge; the wall is above
	tabletopP      = 0.4 // probability that an object is on the table
	tabletopJitter = 1.0 // max displacement of an object, pixels
	tabletopNoise  = 2.0 / 255
	tabletopSeed   = 1
	textureSeed    = 0x7ab1e
)

var tabletopFeatures = []string{"red_mug", "blue_book", "yellow_banana", "green_phone"}

// Tabletop renders 100 colour 320×240 JPEG scenes named scene_001.jpg … scene_100.jpg;
// every one of the 16 combinations of the four objects occurs.
func Tabletop() Set {
	rng := newRand(tabletopSeed)
	codes := coveringCodes(rng, tabletopN, len(tabletopFeatures), tabletopP)
	base := tableBase()
	light := tableLight()
	draw := []func(c *canvas, dx, dy float64){drawMug, drawBook, drawBanana, drawPhone}
	set := Set{Name: "tabletop", FeatureNames: tabletopFeatures}
	for n, code := range codes {
		c := base.clone()
		for j, on := range code {
			// Draw the jitter whatever the code, so one object's presence never shifts
			// the random numbers of another.
			dx := tabletopJitter * (2*rng.Float64() - 1)
			dy := tabletopJitter * (2*rng.Float64() - 1)
			if on {
				draw[j](c, dx, dy)
			}
		}
		for i := range c.pix {
			c.pix[i] *= light[i/3]
		}
		c.addNoise(rng, tabletopNoise)
		set.Images = append(set.Images, Image{
			Name: fmt.Sprintf("scene_%03d.jpg", n+1),
			Data: encodeJPEG(c.rgba(), 85),
			Code: codeString(code),
		})
	}
	return set
}

// tableBase is the unlit empty scene: a plaster wall and a wood table top whose grain is
// value noise stretched along the boards.
func tableBase() *canvas {
	c := newCanvas(tabletopW, tabletopH, 3, rgb{})
	wall := rgb{0.80, 0.78, 0.74}
	light, dark := rgb{0.60, 0.42, 0.26}, rgb{0.42, 0.27, 0.15}
	for y := range tabletopH {
		for x := range tabletopW {
			fx, fy := float64(x), float64(y)
			p := c.pix[(y*tabletopW+x)*3:][:3]
			if y < tableEdge {
				v := 0.96 + 0.06*fbm(textureSeed+10, fx/40, fy/40, 3) - 0.05*fy/tableEdge
				for k := range p {
					p[k] = wall[k] * v
				}
				continue
			}
			warp := fbm(textureSeed, fx/90, fy/16, 4)
			rings := 0.5 + 0.5*math.Sin((fy+18*warp)*0.45+2.5*fbm(textureSeed+20, fx/150, fy/30, 2))
			grain := valueNoise(textureSeed+30, fx/22, fy*1.4)
			t := 0.6*rings*rings + 0.4*grain
			for k := range p {
				p[k] = light[k] + t*(dark[k]-light[k])
			}
		}
	}
	// The table's back edge and the seams between its boards.
	c.darken(roundRect(tabletopW/2, tableEdge+1.5, tabletopW, 1.5, 0), 0.45, 1.5)
	for _, y := range []float64{130, 185} {
		c.darken(roundRect(tabletopW/2, y, tabletopW, 0.6, 0), 0.25, 1)
	}
	return c
}

// tableLight is the multiplicative lighting of every pixel: a broad soft light above the
// upper left, the same in every picture so it belongs to the base.
func tableLight() []float64 {
	l := make([]float64, tabletopW*tabletopH)
	for y := range tabletopH {
		for x := range tabletopW {
			dx, dy := float64(x)-95, float64(y)-40
			l[y*tabletopW+x] = 0.62 + 0.5*math.Exp(-(dx*dx+dy*dy)/(2*190*190))
		}
	}
	return l
}

// place moves a shape drawn at its nominal position by the picture's jitter.
func place(s shape, dx, dy float64) shape { return translated(s, dx, dy) }

// drawMug draws a red mug seen from above, empty and white inside, handle to the right.
func drawMug(c *canvas, dx, dy float64) {
	const cx, cy, r = 78, 128, 27
	handle := roundRect(cx+r+3, cy, 10, 5.5, 5)
	body := circle(cx, cy, r)
	c.darken(place(translated(union(body, handle), 5, 5), dx, dy), 0.4, 7)
	c.fill(place(handle, dx, dy), rgb{0.60, 0.08, 0.07}, 1)
	c.fill(place(body, dx, dy), rgb{0.80, 0.12, 0.10}, 1)
	c.fill(place(ring(cx, cy, r-2.5, 1.6), dx, dy), rgb{0.92, 0.38, 0.32}, 1)
	c.fill(place(circle(cx, cy, r-6), dx, dy), rgb{0.90, 0.88, 0.82}, 1)
	c.fillSoft(place(circle(cx+4, cy+4, r-9), dx, dy), rgb{0.70, 0.68, 0.64}, 1, 8)
}

// drawBook draws a blue hardback book, slightly turned, its pages showing at one side.
func drawBook(c *canvas, dx, dy float64) {
	const cx, cy, hw, hh, angle = 232, 124, 36, 25, 0.14
	turn := func(s shape) shape { return place(rotated(s, cx, cy, angle), dx, dy) }
	c.darken(turn(roundRect(cx+5, cy+5, hw, hh, 3)), 0.4, 7)
	c.fill(turn(roundRect(cx+2, cy+2, hw, hh, 2)), rgb{0.93, 0.91, 0.85}, 1)
	c.fill(turn(roundRect(cx, cy, hw, hh, 3)), rgb{0.13, 0.27, 0.68}, 1)
	c.fill(turn(roundRect(cx-hw+6, cy, 6, hh, 2)), rgb{0.08, 0.17, 0.45}, 1)
	c.fill(turn(roundRect(cx+4, cy-hh*0.4, hw*0.52, 7, 2)), rgb{0.88, 0.80, 0.42}, 1)
	c.fill(turn(roundRect(cx+4, cy+hh/2, hw*0.6, 1.2, 1)), rgb{0.88, 0.80, 0.42}, 1)
}

// drawBanana draws a banana lying on its side: a tube of varying width along a curve.
func drawBanana(c *canvas, dx, dy float64) {
	const cx, cy, half, bend, width = 92, 190, 50, 14, 12
	tube := func(scale, lift float64) shape {
		const segments = 16
		var pts, radii []float64
		for i := 0; i <= segments; i++ {
			t := float64(i) / segments
			u := 2*t - 1
			pts = append(pts, cx+half*u, cy+bend*(1-u*u)-lift)
			radii = append(radii, (3+width*math.Pow(math.Sin(math.Pi*t), 0.7))*scale)
		}
		return taper(pts, radii)
	}
	c.darken(place(translated(tube(1, 0), 4, 5), dx, dy), 0.4, 6)
	c.fill(place(tube(1, 0), dx, dy), rgb{0.80, 0.62, 0.10}, 1)
	c.fillSoft(place(tube(0.7, 2.5), dx, dy), rgb{0.95, 0.83, 0.22}, 1, 3)
	c.fill(place(capsule(cx-half, cy, cx-half-6, cy-5, 2.2), dx, dy), rgb{0.40, 0.30, 0.12}, 1)
	c.fill(place(circle(cx+half, cy, 2.5), dx, dy), rgb{0.25, 0.18, 0.08}, 1)
}

// drawPhone draws a green mobile phone with a dark screen and a home button.
func drawPhone(c *canvas, dx, dy float64) {
	const cx, cy, hw, hh, angle = 236, 207, 42, 24, -0.1
	turn := func(s shape) shape { return place(rotated(s, cx, cy, angle), dx, dy) }
	c.darken(turn(roundRect(cx+4, cy+4, hw, hh, 6)), 0.4, 6)
	c.fill(turn(roundRect(cx, cy, hw, hh, 6)), rgb{0.18, 0.70, 0.34}, 1)
	c.fill(turn(roundRect(cx-4, cy, hw-11, hh-5, 2)), rgb{0.06, 0.08, 0.10}, 1)
	c.fill(turn(rotated(ellipse(cx-12, cy-6, 12, 4), cx-12, cy-6, -0.35)), rgb{1, 1, 1}, 0.08)
	c.fill(turn(ring(cx+hw-8, cy, 3.5, 0.9)), rgb{0.07, 0.32, 0.16}, 1)
}
