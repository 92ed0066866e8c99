package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scene is a 64×48 colour picture of fine random texture around mid grey, the kind of
// ground a shadow falls on.
func scene(seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, 64*48*3)
	for i := range out {
		out[i] = 0.35 + 0.3*rng.Float64()
	}
	return out
}

// paint returns a copy of img with f applied to the samples of the pixels inside the
// rectangle [x0, x1) × [y0, y1).
func paint(img []float64, x0, y0, x1, y1 int, f func(v float64) float64) []float64 {
	out := append([]float64(nil), img...)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			for c := 0; c < 3; c++ {
				i := (y*64+x)*3 + c
				out[i] = f(out[i])
			}
		}
	}
	return out
}

// softShadow returns img dimmed to a third inside the ellipse inscribed in [20, 44) ×
// [12, 36), fading to nothing over its outer fifth, as internal/scenes draws a shadow.
func softShadow(img []float64) []float64 {
	out := append([]float64(nil), img...)
	for y := 12; y < 36; y++ {
		for x := 20; x < 44; x++ {
			u, v := (float64(x)+0.5-32)/12, (float64(y)+0.5-24)/12
			w := min(1, max(0, (1-math.Sqrt(u*u+v*v))/0.2))
			for c := 0; c < 3; c++ {
				out[(y*64+x)*3+c] *= 1 - w*2/3
			}
		}
	}
	return out
}

// glow returns img with a lamp's light added, as internal/scenes draws one: a Gaussian
// of 0.25 at its centre (32, 24), its deviation 5 pixels, with no edge.
func glow(img []float64) []float64 {
	out := append([]float64(nil), img...)
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			u, v := (float64(x)+0.5-32)/5, (float64(y)+0.5-24)/5
			for c := 0; c < 3; c++ {
				out[(y*64+x)*3+c] += 0.25 * math.Exp(-(u*u+v*v)/2)
			}
		}
	}
	return out
}

// TestHoldsReadsLightAsAdded: a lamp's light, which raises the scene's level and keeps
// its texture as it was, is held by the brighter picture (a shadow, which scales the
// texture with the light, by the darker: TestHoldsReadsObjectsWhateverTheirLight).
func TestHoldsReadsLightAsAdded(t *testing.T) {
	ground := scene(4)
	lit := glow(ground)
	if texture, textureGain, meanGain := Shade(ground, lit, 64, 48, 3); texture < 0.85 || math.Abs(math.Log(textureGain)) > 0.05 || meanGain < 1.2 {
		t.Errorf("light: texture %.3f, gains %.3f and %.3f; want ≥ 0.85, the texture's ≈ 1 and the mean's above 1.2", texture, textureGain, meanGain)
	}
	if h := Holds(ground, lit, 64, 48, 3); !(h > 0) {
		t.Errorf("Holds(ground, ground lit) = %v, want > 0", h)
	}
	if h := Holds(lit, ground, 64, 48, 3); !(h < 0) {
		t.Errorf("Holds(ground lit, ground) = %v, want < 0", h)
	}
}

// TestShadedWeighsLightAgainstShadow: Shade's figures as measured on the scene folders
// (scenes.RandomLight, seeds 201–206, the base and each feature of the default fit) turn
// the outline's say: the lamp's light, its texture gain about 1 and next to no outline,
// is held by the brighter picture; a shadow, its texture at the mean's gain, by the
// darker, whichever way it is compared; a card, whose print does not follow the scene,
// and a change with a clear outline are left to the outline.
func TestShadedWeighsLightAgainstShadow(t *testing.T) {
	for _, tc := range []struct {
		name                                  string
		score, texture, textureGain, meanGain float64
		brighterHolds                         bool
	}{
		{"light, seed 206", -0.06, 0.99, 1.00, 0.70, true},
		{"light, seed 205", -0.10, 0.99, 1.01, 0.73, true},
		{"light, seed 202", 0.01, 0.98, 1.07, 0.82, true},
		{"light, seed 204 (lit)", 0.08, 0.99, 1.01, 1.67, true},
		{"shadow, seed 201", 0, 0.96, 0.34, 0.33, false},
		{"shadow, seed 201, the other way", 0, 0.96, 1 / 0.34, 1 / 0.33, false},
		{"shadow, seed 206", 0, 0.61, 0.41, 0.34, false},
	} {
		got := shaded(tc.score, tc.texture, tc.textureGain, tc.meanGain)
		// The brighter picture holds the change when the score follows the mean's gain.
		if brighter := got*math.Log(tc.meanGain) > 0; brighter != tc.brighterHolds {
			t.Errorf("%s: shaded(%v, %v, %v, %v) = %v: the brighter picture holds it %v, want %v",
				tc.name, tc.score, tc.texture, tc.textureGain, tc.meanGain, got, brighter, tc.brighterHolds)
		}
	}
	if got := shaded(1.2, 0.05, 1.0, 1.6); got != 1.2 {
		t.Errorf("a card's print (texture 0.05): shaded = %v, want the outline's 1.2", got)
	}
	if got := shaded(-0.8, 0.9, 1.0, 1.6); got != -0.8 {
		t.Errorf("an outline of −0.8 with the texture of light: shaded = %v, want the outline's", got)
	}
}

// TestHoldsReadsObjectsWhateverTheirLight: a shadow (the texture kept at a third of its
// light), a white card and a black card each read as held by the picture that has them,
// either way round. (On the scene folders the outline alone reads such a shadow
// backwards: app/pipeline's TestDefaultsReadRandomScenes.)
func TestHoldsReadsObjectsWhateverTheirLight(t *testing.T) {
	ground := scene(1)
	for _, tc := range []struct {
		name   string
		object func(v float64) float64
	}{
		{"shadow", nil},
		{"white card", func(float64) float64 { return 0.95 }},
		{"black card", func(float64) float64 { return 0.05 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			with := softShadow(ground)
			if tc.object != nil {
				with = paint(ground, 20, 12, 44, 36, tc.object)
			}
			if h := Holds(ground, with, 64, 48, 3); !(h > 0) {
				t.Errorf("Holds(ground, ground with the %s) = %v, want > 0", tc.name, h)
			}
			if h := Holds(with, ground, 64, 48, 3); !(h < 0) {
				t.Errorf("Holds(ground with the %s, ground) = %v, want < 0", tc.name, h)
			}
		})
	}
	if h := Holds(ground, ground, 64, 48, 3); h != 0 {
		t.Errorf("Holds of a picture against itself = %v, want 0", h)
	}
}

// TestShadeTellsShadowFromObject: a shadow keeps the texture under it at its own gain; a
// card replaces it.
func TestShadeTellsShadowFromObject(t *testing.T) {
	ground := scene(2)
	texture, textureGain, meanGain := Shade(ground, softShadow(ground), 64, 48, 3)
	if texture < 0.85 || textureGain < 0.3 || textureGain > 0.4 || meanGain < 0.3 || meanGain > 0.4 {
		t.Errorf("shadow: texture %.3f, gains %.3f and %.3f; want ≥ 0.85 and both ≈ 1/3", texture, textureGain, meanGain)
	}
	// A card's own print: texture unrelated to the ground's.
	print := scene(3)
	card := paint(ground, 20, 12, 44, 36, func(float64) float64 { return 0 })
	for y := 12; y < 36; y++ {
		for x := 20; x < 44; x++ {
			for c := 0; c < 3; c++ {
				i := (y*64+x)*3 + c
				card[i] = 0.3 + print[i]
			}
		}
	}
	if texture, _, _ := Shade(ground, card, 64, 48, 3); texture > 0.3 {
		t.Errorf("card: texture %.3f, want the print not to follow the ground", texture)
	}
	if texture, textureGain, meanGain := Shade(ground, ground, 64, 48, 3); texture != 0 || textureGain != 1 || meanGain != 1 {
		t.Errorf("identical pictures: %v, %v, %v; want 0, 1, 1", texture, textureGain, meanGain)
	}
}
