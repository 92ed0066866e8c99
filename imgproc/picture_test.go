package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMeasuresDoNotDependOnWorkers: a Picture's measures, made in bands of rows on one
// goroutine or several, are to the bit those of the whole picture's planes blurred at
// once, over all of it and over a part, and the blur is kept a pixel around the part,
// where a Change's comparison reads it.
func TestMeasuresDoNotDependOnWorkers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w, h, c int
		r       rect
	}{
		{"tiny", 2, 2, 1, rect{0, 0, 2, 2}},
		{"grey strip", 7, 150, 1, rect{0, 0, 7, 150}},
		{"colour", 320, 240, 3, rect{0, 0, 320, 240}},
		{"colour part", 320, 240, 3, rect{40, 17, 301, 205}},
		{"touching the bottom", 90, 101, 3, rect{3, 30, 60, 101}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.w), uint64(tc.h)))
			samples := make([]float64, tc.w*tc.h*tc.c)
			for i := range samples {
				samples[i] = rng.Float64()
			}
			one := wholeMeasures(samples, tc.w, tc.h, tc.c)
			kept := tc.r.grown(1, tc.w, tc.h)
			for _, workers := range []int{1, 2, 3, 8} {
				p := NewPicture(samples, tc.w, tc.h, tc.c)
				p.ensureOn(tc.r, workers)
				if p.done != tc.r {
					t.Fatalf("%d workers made %v, want %v", workers, p.done, tc.r)
				}
				for y := kept.y0; y < kept.y1; y++ {
					for x := kept.x0; x < kept.x1; x++ {
						q := y*tc.w + x
						inside := x >= tc.r.x0 && x < tc.r.x1 && y >= tc.r.y0 && y < tc.r.y1
						if inside && math.Float64bits(p.edges[q]) != math.Float64bits(one.edges[q]) {
							t.Fatalf("%d workers: edges at (%d, %d) %v, whole %v", workers, x, y, p.edges[q], one.edges[q])
						}
						for ch := range tc.c {
							i := q*tc.c + ch
							if math.Float64bits(p.smooth[i]) != math.Float64bits(one.smooth[i]) {
								t.Fatalf("%d workers: smooth at (%d, %d) %v, whole %v", workers, x, y, p.smooth[i], one.smooth[i])
							}
							if inside && math.Float64bits(p.texture[i]) != math.Float64bits(one.texture[i]) {
								t.Fatalf("%d workers: texture at (%d, %d) %v, whole %v", workers, x, y, p.texture[i], one.texture[i])
							}
						}
					}
				}
			}
		})
	}
}

// wholeMeasures is a Picture's measures made as their definitions say, each channel's
// plane blurred whole.
func wholeMeasures(samples []float64, w, h, c int) *Picture {
	p := &Picture{w: w, h: h, c: c, samples: samples, edges: make([]float64, w*h),
		smooth: make([]float64, w*h*c), texture: make([]float64, w*h*c)}
	for ch := range c {
		plane := make([]float64, w*h)
		for q := range plane {
			plane[q] = samples[q*c+ch]
		}
		smooth, shade := boxBlur(plane, w, h, structureScale), boxBlur(plane, w, h, shadeScale)
		for q := range plane {
			if x, y := q%w, q/w; x < w-1 && y < h-1 {
				dx, dy := plane[q+1]-plane[q], plane[q+w]-plane[q]
				p.edges[q] += dx*dx + dy*dy
				dx, dy = smooth[q+1]-smooth[q], smooth[q+w]-smooth[q]
				p.edges[q] += structureWeight * (dx*dx + dy*dy)
			}
			p.smooth[q*c+ch] = smooth[q]
			p.texture[q*c+ch] = plane[q] - shade[q]
		}
	}
	return p
}

// BenchmarkPrepare: a 320 × 240 colour base's measures, as a reading makes them for
// every round of its flips, on one goroutine and on two.
func BenchmarkPrepare(b *testing.B) {
	w, h, c := 320, 240, 3
	rng := rand.New(rand.NewPCG(1, 2))
	samples := make([]float64, w*h*c)
	for i := range samples {
		samples[i] = rng.Float64()
	}
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "one", 2: "two"}[workers], func(b *testing.B) {
			p := NewPicture(samples, w, h, c)
			for b.Loop() {
				p.Changed()
				p.Prepare(workers)
			}
		})
	}
}
