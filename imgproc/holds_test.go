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
