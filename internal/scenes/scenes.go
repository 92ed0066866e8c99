package scenes

import (
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/disintegration/imaging"
)

// Kind is what an object looks like on the scene.
type Kind int

// The kinds of object a folder's scene holds.
const (
	// Card is a playing card (an RGBA picture) laid on the scene: bright, with edges and
	// print the scene does not have.
	Card Kind = iota
	// Shadow is a soft-edged patch darker than the scene beneath it: an object that takes
	// light away, which a reading by brightness would call a removal.
	Shadow
	// Colour is a patch of saturated stripes: colour and texture the scene lacks.
	Colour
	// Light is a lamp's light falling on the scene: a glow with no edge added to the
	// scene's light, which brightens it and leaves its texture as it was — where a
	// shadow scales the texture with the light it takes away.
	Light
)

// Object is one thing that comes and goes: what it is, where it lies in the scene, and
// the share of the pictures it is in.
type Object struct {
	Name     string
	Kind     Kind
	Picture  string          // for a Card: the card's file
	Place    image.Rectangle // in the scene's pixels
	Presence float64         // probability of being in a picture, in (0, 1)
}

// Spec is a folder to build: a real photo as the scene, the objects on it, and the
// nuisances a camera folder has.
type Spec struct {
	Scene         string // the background photo's file
	Width, Height int    // the pictures' size; the scene is cropped and resized to it
	N             int    // pictures
	Objects       []Object
	Exposure      float64 // each picture's gain is drawn uniformly in [1 − Exposure, 1 + Exposure]
	Jitter        int     // each object is shifted by up to ±Jitter pixels each way
	Quality       int     // JPEG quality
	Seed          uint64
}

// Folder is what Write built: the pictures' names and, per picture, which objects are in
// it (the true codes), in the order of Spec.Objects.
type Folder struct {
	Names   []string
	Codes   [][]bool
	Objects []string
	Gains   []float64 // each picture's exposure gain
}

// TruthFile is the file Write leaves beside the pictures: image,code with one bit per
// object, as the built-in samples' truth.csv.
const TruthFile = "truth.csv"

// Write renders spec into dir as picture_001.jpg … and truth.csv, and returns the truth.
// The same spec gives the same bytes.
func Write(dir string, spec Spec) (Folder, error) {
	if spec.N < 1 || spec.Width < 16 || spec.Height < 16 || len(spec.Objects) == 0 {
		return Folder{}, errors.New("scenes: need N ≥ 1, a size of at least 16×16 and an object")
	}
	scene, err := imaging.Open(spec.Scene)
	if err != nil {
		return Folder{}, fmt.Errorf("scenes: %w", err)
	}
	base := toRGBA(imaging.Fill(scene, spec.Width, spec.Height, imaging.Center, imaging.Lanczos))
	pictures := make([]image.Image, len(spec.Objects))
	for j, o := range spec.Objects {
		if o.Kind != Card {
			continue
		}
		card, err := imaging.Open(o.Picture)
		if err != nil {
			return Folder{}, fmt.Errorf("scenes: object %s: %w", o.Name, err)
		}
		// The deck's pictures are the print on a transparent ground: a card is that print
		// on white.
		white := imaging.New(card.Bounds().Dx(), card.Bounds().Dy(), color.White)
		card = imaging.Overlay(white, card, image.Point{}, 1)
		pictures[j] = imaging.Resize(card, o.Place.Dx(), o.Place.Dy(), imaging.Lanczos)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Folder{}, err
	}
	rng := rand.New(rand.NewPCG(spec.Seed, 0x5ce7e5))
	f := Folder{}
	for _, o := range spec.Objects {
		f.Objects = append(f.Objects, o.Name)
	}
	quality := spec.Quality
	if quality == 0 {
		quality = 90
	}
	for n := 0; n < spec.N; n++ {
		img := image.NewRGBA(base.Bounds())
		copy(img.Pix, base.Pix)
		code := make([]bool, len(spec.Objects))
		for j, o := range spec.Objects {
			// Draw the presence and the shift whatever the outcome, so that one object's
			// draw never moves another's random numbers.
			on := rng.Float64() < o.Presence
			dx := rng.IntN(2*spec.Jitter+1) - spec.Jitter
			dy := rng.IntN(2*spec.Jitter+1) - spec.Jitter
			if !on {
				continue
			}
			code[j] = true
			place := o.Place.Add(image.Pt(dx, dy))
			switch o.Kind {
			case Card:
				draw.Draw(img, place, pictures[j], image.Point{}, draw.Over)
			case Shadow:
				shadow(img, place)
			case Colour:
				stripes(img, place)
			case Light:
				light(img, place)
			}
		}
		gain := 1 + spec.Exposure*(2*rng.Float64()-1)
		expose(img, gain)
		name := fmt.Sprintf("picture_%03d.jpg", n+1)
		if err := writeJPEG(filepath.Join(dir, name), img, quality); err != nil {
			return Folder{}, err
		}
		f.Names = append(f.Names, name)
		f.Codes = append(f.Codes, code)
		f.Gains = append(f.Gains, gain)
	}
	return f, writeTruth(filepath.Join(dir, TruthFile), f)
}

func toRGBA(img image.Image) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// shadow darkens the ellipse inscribed in r to a third of the scene's light, with a soft
// edge of a few pixels.
func shadow(img *image.RGBA, r image.Rectangle) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	ax, ay := float64(r.Dx())/2, float64(r.Dy())/2
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !(image.Pt(x, y).In(img.Bounds())) {
				continue
			}
			u, v := (float64(x)+0.5-cx)/ax, (float64(y)+0.5-cy)/ay
			d := math.Sqrt(u*u + v*v) // 1 on the ellipse
			// Full darkening inside 0.8 of the radius, fading to none at the edge.
			w := math.Min(1, math.Max(0, (1-d)/0.2))
			if w == 0 {
				continue
			}
			i := img.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				v := float64(img.Pix[i+c])
				img.Pix[i+c] = uint8(math.Round(v * (1 - w*2.0/3)))
			}
		}
	}
}

// light adds a lamp's glow to the scene: a Gaussian of a warm white, its deviation a
// sixth of r's size each way (so it fades to nothing within r, with no edge), 70 levels
// at its centre.
func light(img *image.RGBA, r image.Rectangle) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	sx, sy := float64(r.Dx())/6, float64(r.Dy())/6
	tint := [3]float64{70, 64, 52}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !(image.Pt(x, y).In(img.Bounds())) {
				continue
			}
			u, v := (float64(x)+0.5-cx)/sx, (float64(y)+0.5-cy)/sy
			g := math.Exp(-(u*u + v*v) / 2)
			i := img.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				img.Pix[i+c] = uint8(math.Min(255, math.Round(float64(img.Pix[i+c])+g*tint[c])))
			}
		}
	}
}

// stripes fills r with diagonal stripes of saturated red, green, blue and yellow.
func stripes(img *image.RGBA, r image.Rectangle) {
	palette := []color.RGBA{{220, 30, 40, 255}, {30, 170, 60, 255}, {40, 60, 220, 255}, {240, 210, 30, 255}}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if image.Pt(x, y).In(img.Bounds()) {
				img.SetRGBA(x, y, palette[((x-r.Min.X)+(y-r.Min.Y))/3%len(palette)])
			}
		}
	}
}

// expose multiplies every channel by gain, as a camera's exposure does.
func expose(img *image.RGBA, gain float64) {
	for i := 0; i < len(img.Pix); i += 4 {
		for c := 0; c < 3; c++ {
			img.Pix[i+c] = uint8(math.Min(255, math.Round(float64(img.Pix[i+c])*gain)))
		}
	}
}

func writeJPEG(path string, img image.Image, quality int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: quality}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeTruth(path string, f Folder) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(file)
	_ = w.Write([]string{"image", "code"})
	for n, name := range f.Names {
		var b strings.Builder
		for _, on := range f.Codes[n] {
			if on {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		_ = w.Write([]string{name, b.String()})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
