package main

import (
	"bufio"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// objects is how many objects come and go on the synthetic pictures: each is present
// on a picture with probability ½, independently, like the tabletop photos' objects.
const objects = 4

// scene draws one synthetic picture of w×h: a smooth base (a lit tabletop), the objects
// that are present (four coloured shapes at fixed places), and pixel noise.
func scene(w, h int, present [objects]bool, rng *rand.Rand, noise float64) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	colours := [objects][3]float64{{0.85, 0.15, 0.1}, {0.1, 0.6, 0.2}, {0.15, 0.25, 0.85}, {0.9, 0.8, 0.1}}
	// Each object's centre and size as fractions of the picture.
	cx := [objects]float64{0.27, 0.73, 0.27, 0.73}
	cy := [objects]float64{0.27, 0.27, 0.73, 0.73}
	const r = 0.15
	for y := range h {
		fy := (float64(y) + 0.5) / float64(h)
		for x := range w {
			fx := (float64(x) + 0.5) / float64(w)
			c := [3]float64{0.55 + 0.2*fx, 0.5 + 0.1*fy, 0.45 - 0.1*fx}
			for k := range objects {
				if !present[k] {
					continue
				}
				dx, dy := fx-cx[k], fy-cy[k]
				inside := false
				switch k {
				case 0: // square
					inside = math.Abs(dx) < r && math.Abs(dy) < r
				case 1: // disc
					inside = dx*dx+dy*dy < r*r
				case 2: // diamond
					inside = math.Abs(dx)+math.Abs(dy) < r*1.3
				case 3: // bar
					inside = math.Abs(dx) < r*1.4 && math.Abs(dy) < r*0.5
				}
				if inside {
					c = colours[k]
				}
			}
			o := img.PixOffset(x, y)
			for ch := range 3 {
				v := c[ch] + noise*rng.NormFloat64()
				img.Pix[o+ch] = uint8(math.Round(255 * min(1, max(0, v))))
			}
			img.Pix[o+3] = 255
		}
	}
	return img
}

// folder is a generated folder of pictures and which objects each shows.
type folder struct {
	name  string
	dir   string
	n     int
	truth [][objects]bool // by file, in the order of the names below
	names []string
}

// generate writes n pictures of w×h into dir (PNG, or JPEG at quality 90 when jpg), on
// all cores, and returns the folder with its truth. Picture i's objects and noise come
// from seed i, so a folder is the same on every run.
func generate(name, dir string, n, w, h int, jpg bool, noise float64) (*folder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f := &folder{name: name, dir: dir, n: n, truth: make([][objects]bool, n), names: make([]string, n)}
	ext := ".png"
	if jpg {
		ext = ".jpg"
	}
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w0 := range errs {
		wg.Go(func() {
			for i := w0; i < n; i += len(errs) {
				rng := rand.New(rand.NewPCG(uint64(i), 99))
				var present [objects]bool
				for k := range present {
					present[k] = rng.IntN(2) == 1
				}
				f.truth[i] = present
				f.names[i] = fmt.Sprintf("img%06d%s", i, ext)
				if errs[w0] = writePicture(filepath.Join(dir, f.names[i]), scene(w, h, present, rng, noise), jpg); errs[w0] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

func writePicture(path string, img image.Image, jpg bool) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	if jpg {
		err = jpeg.Encode(bw, img, &jpeg.Options{Quality: 90})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(bw, img)
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
