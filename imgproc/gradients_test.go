package imgproc

import (
	"math"
	"slices"
	"testing"
)

// TestGradientDescriptors checks the descriptors on pictures whose answer is known: a
// vertical edge votes only the horizontal-gradient bins (7 and 0, split at the wrap), a
// horizontal edge only bins 3 and 4, the inverted picture gives the same descriptors
// (unsigned orientations), a flat picture the zero vector, every non-flat descriptor
// has unit length, and a picture smaller than a patch has none.
func TestGradientDescriptors(t *testing.T) {
	const w, h = 20, 16
	edge := func(vertical, invert bool) []float32 {
		row := make([]float32, w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				on := x >= w/2
				if !vertical {
					on = y >= h/2
				}
				if on != invert {
					row[y*w+x] = 1
				}
			}
		}
		return row
	}
	collect := func(row []float32, w, h, ch int) [][]float64 {
		var out [][]float64
		n := GradientDescriptors(row, w, h, ch, func(d []float64) { out = append(out, slices.Clone(d)) })
		if n != len(out) {
			t.Fatalf("returned %d, called %d times", n, len(out))
		}
		return out
	}
	if got, want := len(collect(edge(true, false), w, h, 1)), ((w-8)/4+1)*((h-8)/4+1); got != want {
		t.Fatalf("%d patches, want %d", got, want)
	}
	for _, tc := range []struct {
		name     string
		vertical bool
		bins     []int
	}{{"vertical edge", true, []int{7, 0}}, {"horizontal edge", false, []int{3, 4}}} {
		plain, inverted := collect(edge(tc.vertical, false), w, h, 1), collect(edge(tc.vertical, true), w, h, 1)
		voted := 0
		for p, d := range plain {
			var norm float64
			for j, v := range d {
				norm += v * v
				if v != 0 && !slices.Contains(tc.bins, j%GradBins) {
					t.Fatalf("%s: patch %d votes bin %d: %v", tc.name, p, j%GradBins, d)
				}
				if math.Abs(v-inverted[p][j]) > 1e-12 {
					t.Fatalf("%s: patch %d differs when inverted", tc.name, p)
				}
			}
			if norm > 0 {
				voted++
				if math.Abs(norm-1) > 1e-12 {
					t.Fatalf("%s: patch %d has squared length %v", tc.name, p, norm)
				}
			}
		}
		if voted == 0 {
			t.Fatalf("%s: no patch saw the edge", tc.name)
		}
	}
	flat := make([]float32, 3*w*h)
	for i := range flat {
		flat[i] = 0.4
	}
	for _, d := range collect(flat, w, h, 3) {
		if slices.ContainsFunc(d, func(v float64) bool { return v != 0 }) {
			t.Fatalf("a flat picture gave %v", d)
		}
	}
	if n := GradientDescriptors(make([]float32, 7*7), 7, 7, 1, func([]float64) { t.Fatal("called") }); n != 0 {
		t.Fatalf("a 7×7 picture has %d patches", n)
	}
}

// FuzzGradientDescriptors feeds pictures of any size, channels and values, NaN and ±Inf
// included (a decoder never makes them, but a descriptor must not turn them into a
// panic): the number of patches is the grid's, and every descriptor is finite and of
// unit or zero length whenever the picture is finite.
func FuzzGradientDescriptors(f *testing.F) {
	f.Add(uint8(20), uint8(16), true, []byte{0, 255, 7, 128})
	f.Add(uint8(8), uint8(8), false, []byte{1})
	f.Add(uint8(3), uint8(40), true, []byte{})
	f.Fuzz(func(t *testing.T, w8, h8 uint8, colour bool, data []byte) {
		w, h, ch := int(w8%64), int(h8%64), 1
		if colour {
			ch = 3
		}
		row := make([]float32, w*h*ch)
		finite := true
		for i := range row {
			if len(data) > 0 {
				b := data[i%len(data)]
				row[i] = float32(b) / 255
				if b == 254 {
					row[i], finite = float32(math.Inf(1)), false
				}
			}
		}
		want := 0
		if w >= 2*GradCell && h >= 2*GradCell {
			want = ((w-2*GradCell)/GradCell + 1) * ((h-2*GradCell)/GradCell + 1)
		}
		n := GradientDescriptors(row, w, h, ch, func(d []float64) {
			if len(d) != GradDims {
				t.Fatalf("descriptor of %d values", len(d))
			}
			if !finite {
				return
			}
			var s float64
			for _, v := range d {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("descriptor holds %v", v)
				}
				s += v * v
			}
			if s != 0 && math.Abs(s-1) > 1e-9 {
				t.Fatalf("squared length %v", s)
			}
		})
		if n != want {
			t.Fatalf("%d×%d: %d patches, want %d", w, h, n, want)
		}
	})
}
