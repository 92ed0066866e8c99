package views

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A code's bits drawn as squares, each as dark (in the theme's foreground colour) as the
// image's probability of owning the feature: the IBP's code is one sample of a posterior,
// and a bit the sweeps left at ½ is drawn half-tone beside the sure 0s (empty squares)
// and 1s (full ones). A bit takes about a monospace digit's width, as in the code
// written in 0s and 1s.
const (
	bitSide = 8 // side of a bit's square
	bitStep = 9 // from one square to the next
)

// shadedBitsNote follows the code counts when the codes are shaded.
const shadedBitsNote = ". Each code's squares are shaded by how often the image owned the feature in the second half of the sweeps: full always, empty never"

// shadedNewBitsNote follows the code counts of an applied folder whose codes are shaded.
const shadedNewBitsNote = ". Each code's squares are shaded by the image's probability of owning the feature under the IBP's model, given the learned features: full 1, empty 0"

// codeBits draws one image's code as shaded squares (app.Presentation.Probabilities).
type codeBits struct {
	widget.BaseWidget
	probs []float64
	mark  int // feature whose square is outlined in the primary colour (its owners are marked), −1 for none
}

func newCodeBits() *codeBits {
	b := &codeBits{mark: -1}
	b.ExtendBaseWidget(b)
	return b
}

// set shows probabilities probs, feature mark outlined; call on the UI goroutine.
func (b *codeBits) set(probs []float64, mark int) {
	b.probs, b.mark = probs, mark
	b.Refresh()
}

// bitsWidth is the width K bits take.
func bitsWidth(k int) float32 { return float32(max(k*bitStep-(bitStep-bitSide), 0)) }

// MinSize is the squares' with the inner padding a label's text has on both sides, so
// that the bits start where a text code would.
func (b *codeBits) MinSize() fyne.Size {
	return fyne.NewSize(bitsWidth(len(b.probs))+2*theme.InnerPadding(), bitSide)
}

func (b *codeBits) CreateRenderer() fyne.WidgetRenderer {
	r := &codeBitsRenderer{b: b}
	r.Refresh()
	return r
}

type codeBitsRenderer struct {
	b       *codeBits
	squares []fyne.CanvasObject
}

// shade is the fill of a bit owned with probability p: the background mixed with the
// foreground in proportion p, so that it reads in the light and the dark theme alike.
func shade(p float64) color.Color {
	bg := color.NRGBAModel.Convert(theme.Color(theme.ColorNameBackground)).(color.NRGBA)
	fg := color.NRGBAModel.Convert(theme.Color(theme.ColorNameForeground)).(color.NRGBA)
	if math.IsNaN(p) {
		p = 0.5 // unknown: drawn as unsure as can be
	}
	p = min(max(p, 0), 1)
	mix := func(a, b uint8) uint8 { return uint8(float64(a) + p*(float64(b)-float64(a)) + 0.5) }
	return color.NRGBA{mix(bg.R, fg.R), mix(bg.G, fg.G), mix(bg.B, fg.B), 255}
}

func (r *codeBitsRenderer) Refresh() {
	b := r.b
	for len(r.squares) < len(b.probs) {
		sq := canvas.NewRectangle(color.Transparent)
		sq.StrokeWidth = 1
		r.squares = append(r.squares, sq)
	}
	r.squares = r.squares[:len(b.probs)]
	for k, p := range b.probs {
		sq := r.squares[k].(*canvas.Rectangle)
		sq.FillColor = shade(p)
		sq.StrokeColor = theme.Color(theme.ColorNameDisabled)
		if k == b.mark {
			sq.StrokeColor = theme.Color(theme.ColorNamePrimary)
			sq.StrokeWidth = 2
		} else {
			sq.StrokeWidth = 1
		}
		sq.Refresh()
	}
	r.Layout(b.Size())
}

func (r *codeBitsRenderer) Layout(size fyne.Size) {
	x, y := theme.InnerPadding(), (size.Height-bitSide)/2
	for k, sq := range r.squares {
		sq.Resize(fyne.NewSquareSize(bitSide))
		sq.Move(fyne.NewPos(x+float32(k*bitStep), y))
	}
}

func (r *codeBitsRenderer) MinSize() fyne.Size           { return r.b.MinSize() }
func (r *codeBitsRenderer) Objects() []fyne.CanvasObject { return r.squares }
func (r *codeBitsRenderer) Destroy()                     {}
