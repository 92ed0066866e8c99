package segment

import (
	"image"
	"image/color"
	"testing"
)

// twoHalves is a 4×2 result with labels 0 on the left half and 1 on the right.
func twoHalves() *Result {
	return &Result{
		Labels: []int32{0, 0, 1, 1, 0, 0, 1, 1}, Width: 4, Height: 2, Segments: 2,
		Means: [][]float64{{1, 0, 0}, {0, 0, 1}},
	}
}

func TestLabelAndColorImage(t *testing.T) {
	r := twoHalves()
	li := r.LabelImage()
	ci := r.ColorImage()
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			want := r.Labels[y*4+x]
			if got := li.Gray16At(x, y).Y; got != uint16(want) {
				t.Errorf("label image (%d,%d) = %d, want %d", x, y, got, want)
			}
			c := color.RGBAModel.Convert(ci.At(x, y)).(color.RGBA)
			wantC := color.RGBA{255, 0, 0, 255}
			if want == 1 {
				wantC = color.RGBA{0, 0, 255, 255}
			}
			if c != wantC {
				t.Errorf("colour image (%d,%d) = %v, want %v", x, y, c, wantC)
			}
		}
	}
}

func TestBoundaryImage(t *testing.T) {
	r := twoHalves()
	img := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for i := range img.Pix {
		img.Pix[i] = 255 // white: the farthest boundary colour is black
	}
	out := BoundaryImage(img, r)
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			c := color.RGBAModel.Convert(out.At(x, y)).(color.RGBA)
			onBoundary := x == 1 // its right neighbour has the other label
			if black := c == (color.RGBA{0, 0, 0, 255}); black != onBoundary {
				t.Errorf("(%d,%d) = %v, boundary %v", x, y, c, onBoundary)
			}
		}
	}
	// An image of another size is ignored: boundaries on white.
	out = BoundaryImage(image.NewRGBA(image.Rect(0, 0, 3, 3)), r)
	if b := out.Bounds(); b.Dx() != 4 || b.Dy() != 2 {
		t.Errorf("boundary image is %v, want 4×2", b)
	}
}

// TestBoundaryShowsOnBlackAndWhite: a black picture with a white square, the dice of
// the data set, gets lines in neither black nor white. Before, the colour farthest on
// average from the whole (mostly black) image was white, and the lines along the
// square's edges could not be seen.
func TestBoundaryShowsOnBlackAndWhite(t *testing.T) {
	const w, h = 14, 14
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := &Result{Width: w, Height: h, Labels: make([]int32, w*h), Segments: 2}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := img.PixOffset(x, y)
			img.Pix[i+3] = 255
			if x >= 9 && x < 12 && y >= 2 && y < 5 {
				img.Pix[i], img.Pix[i+1], img.Pix[i+2] = 255, 255, 255
				r.Labels[y*w+x] = 1
			}
		}
	}
	out := BoundaryImage(img, r)
	c := color.RGBAModel.Convert(out.At(8, 3)).(color.RGBA) // left of the square
	if c == (color.RGBA{0, 0, 0, 255}) || c == (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("boundary colour on a black-and-white picture is %v", c)
	}
}

// TestBoundaryWidensWithImage: a camera-sized image gets lines several pixels wide,
// centred on the boundary, so they survive being fitted to a window.
func TestBoundaryWidensWithImage(t *testing.T) {
	for _, c := range []struct{ w, h, want int }{
		{481, 321, 1}, {1199, 800, 1}, {1200, 800, 2}, {4000, 3000, 5},
	} {
		if got := boundaryWidth(c.w, c.h); got != c.want {
			t.Errorf("boundaryWidth(%d, %d) = %d, want %d", c.w, c.h, got, c.want)
		}
	}
	const w, h = 2000, 4 // lines 3 pixels wide
	r := &Result{Width: w, Height: h, Labels: make([]int32, w*h), Segments: 2}
	for n := range r.Labels {
		if n%w >= w/2 {
			r.Labels[n] = 1
		}
	}
	out := BoundaryImage(nil, r) // on white: black lines
	for x := w/2 - 4; x < w/2+3; x++ {
		c := color.RGBAModel.Convert(out.At(x, 1)).(color.RGBA)
		onLine := x >= w/2-2 && x <= w/2 // around pixel w/2 − 1, the last of label 0
		if black := c == (color.RGBA{0, 0, 0, 255}); black != onLine {
			t.Errorf("x = %d: %v, on the line %v", x, c, onLine)
		}
	}
}
