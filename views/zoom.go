package views

import (
	"fmt"
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The zoom viewer's limits, in screen pixels per image pixel: 3 % still shows a camera
// photo whole, and at 6400 % one pixel of a 14×14 dice image fills a large part of the
// screen. Fit may go beyond them: it is whatever the view needs.
const (
	minZoom = 1.0 / 32
	maxZoom = 64
)

// zoomShare is how much of the window the viewer's dialog takes.
const zoomShare = 0.9

// zoomView shows one picture large, in a scroll container: it opens fitted to the view,
// and Fit, 1:1, + and − change the scale (keys +, −, 0 and 1 too, while it is open).
// Enlarged pixels are drawn as squares, so the user sees the pixels the algorithms saw.
type zoomView struct {
	widget.BaseWidget

	img   image.Image
	pixel float32 // screen pixels per canvas unit (the canvas's scale): what 1:1 means
	scale float32 // canvas units per image pixel
	fit   bool    // the scale follows the view's size

	// backdrop is white behind the picture: a transparent picture (a feature card with
	// alpha) must read as it would on paper, not on the dark theme's background.
	backdrop *canvas.Rectangle
	pic      *canvas.Image
	stage    *fyne.Container // backdrop and picture, laid out by zoomStage
	scroll   *container.Scroll
	level    *widget.Label
	fitBtn   *widget.Button
	oneBtn   *widget.Button
	inBtn    *widget.Button
	outBtn   *widget.Button
	box      fyne.CanvasObject
}

// newZoomView makes a viewer of img for a canvas of the given scale, fitted to its view.
func newZoomView(img image.Image, pixel float32) *zoomView {
	if pixel <= 0 {
		pixel = 1
	}
	v := &zoomView{img: img, pixel: pixel, fit: true}
	v.backdrop = canvas.NewRectangle(color.White)
	v.pic = canvas.NewImageFromImage(img)
	v.pic.FillMode = canvas.ImageFillStretch // the stage gives it the picture's own aspect
	v.pic.ScaleMode = canvas.ImageScaleSmooth
	v.stage = container.New(zoomStage{v}, v.backdrop, v.pic)
	// The stage centres the picture itself: a center layout would ask for the picture's
	// size even when fitting, and the view could never be smaller than the picture.
	v.scroll = container.NewScroll(v.stage)
	v.level = widget.NewLabel("")
	v.fitBtn = widget.NewButtonWithIcon("Fit", theme.ViewRestoreIcon(), v.fitView)
	v.oneBtn = widget.NewButton("1:1", v.actualPixels)
	v.inBtn = widget.NewButtonWithIcon("", theme.ZoomInIcon(), v.zoomIn)
	v.outBtn = widget.NewButtonWithIcon("", theme.ZoomOutIcon(), v.zoomOut)
	// The level fills what is left of the row: its text changes width with the zoom,
	// and a row laid out once would cut it.
	bar := container.NewBorder(nil, nil, container.NewHBox(v.fitBtn, v.oneBtn, v.outBtn, v.inBtn), nil, v.level)
	v.box = container.NewBorder(bar, nil, nil, nil, v.scroll)
	v.ExtendBaseWidget(v)
	v.showLevel()
	return v
}

// CreateRenderer draws the toolbar above the scrolled picture.
func (v *zoomView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.box) }

// zoom is the shown scale in screen pixels per image pixel (1 at 1:1).
func (v *zoomView) zoom() float32 { return v.scale * v.pixel }

// shownSize is the picture's size on the canvas at the current scale.
func (v *zoomView) shownSize() fyne.Size {
	b := v.img.Bounds()
	return fyne.NewSize(float32(b.Dx())*v.scale, float32(b.Dy())*v.scale)
}

func (v *zoomView) fitView() {
	v.fit = true
	v.apply()
}

func (v *zoomView) actualPixels() { v.setZoom(1) }

func (v *zoomView) zoomIn() { v.setZoom(v.zoom() * 2) }

func (v *zoomView) zoomOut() { v.setZoom(v.zoom() / 2) }

// setZoom shows the picture at z screen pixels per image pixel, within the limits.
func (v *zoomView) setZoom(z float32) {
	v.fit = false
	v.scale = min(max(z, minZoom), maxZoom) / v.pixel
	v.apply()
}

// typedRune is the viewer's keyboard: + (or =, the same key unshifted), −, 0 for fit
// and 1 for actual pixels.
func (v *zoomView) typedRune(r rune) {
	switch r {
	case '+', '=':
		v.zoomIn()
	case '-', '−', '_':
		v.zoomOut()
	case '0':
		v.fitView()
	case '1':
		v.actualPixels()
	}
}

// apply lays the picture out at the new scale, keeping the point at the centre of the
// view where it was, as zooming in a photo viewer does.
func (v *zoomView) apply() {
	view, before, off := v.scroll.Size(), v.stage.Size(), v.scroll.Offset
	var cx, cy float32 = 0.5, 0.5
	if before.Width > 0 && before.Height > 0 {
		cx, cy = (off.X+view.Width/2)/before.Width, (off.Y+view.Height/2)/before.Height
	}
	v.scroll.Refresh() // resizes the stage to its new minimum and lays it out
	after := v.stage.Size()
	v.scroll.ScrollToOffset(fyne.NewPos(cx*after.Width-view.Width/2, cy*after.Height-view.Height/2))
	v.showLevel()
}

// showLevel shows the zoom as a percentage, draws enlarged pixels as squares, and
// disables what cannot zoom further.
func (v *zoomView) showLevel() {
	z := v.zoom()
	text := fmt.Sprintf("%.0f%%", 100*z)
	if z < 0.1 {
		text = fmt.Sprintf("%.1f%%", 100*z)
	}
	if v.fit {
		text += " (fit)"
	}
	if v.level.Text != text {
		v.level.SetText(text)
	}
	mode := canvas.ImageScaleSmooth
	if z > 1 {
		mode = canvas.ImageScalePixels
	}
	if v.pic.ScaleMode != mode {
		v.pic.ScaleMode = mode
		v.pic.Refresh()
	}
	enable(v.inBtn, z < maxZoom)
	enable(v.outBtn, z > minZoom)
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// zoomStage lays out the backdrop and the picture at the viewer's scale, centred in what
// the scroll container gives it. When fitting it asks for no room, so it gets the view's
// size, and the scale is chosen from it.
type zoomStage struct{ v *zoomView }

func (l zoomStage) MinSize([]fyne.CanvasObject) fyne.Size {
	if l.v.fit {
		return fyne.Size{}
	}
	return l.v.shownSize()
}

func (l zoomStage) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	v := l.v
	if v.fit && size.Width > 0 && size.Height > 0 {
		b := v.img.Bounds()
		v.scale = min(size.Width/float32(b.Dx()), size.Height/float32(b.Dy()))
		v.showLevel()
	}
	shown := v.shownSize()
	pos := fyne.NewPos(max(0, (size.Width-shown.Width)/2), max(0, (size.Height-shown.Height)/2))
	for _, o := range objects {
		o.Resize(shown)
		o.Move(pos)
	}
}

// showZoom opens img in a zoom viewer over win and returns it; nil when there is no
// picture to show. The viewer is a dialog, not a window: it works in a 1024×700 window
// and under the test driver, and closing it leaves the window as it was.
func showZoom(win fyne.Window, title string, img image.Image) *zoomView {
	if img == nil || img.Bounds().Empty() {
		return nil
	}
	c := win.Canvas()
	v := newZoomView(img, c.Scale())
	d := dialog.NewCustom(title, "Close", v, win)
	// The keys reach the canvas while the dialog is open (nothing in it takes the
	// focus); Esc closes the viewer instead of cancelling the run behind it.
	typedRune, typedKey := c.OnTypedRune(), c.OnTypedKey()
	c.SetOnTypedRune(v.typedRune)
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			d.Hide()
			return
		}
		if typedKey != nil {
			typedKey(ev)
		}
	})
	d.SetOnClosed(func() {
		c.SetOnTypedRune(typedRune)
		c.SetOnTypedKey(typedKey)
	})
	s := c.Size()
	d.Resize(fyne.NewSize(s.Width*zoomShare, s.Height*zoomShare))
	d.Show()
	return v
}

// zoomImage shows a picture in a view's layout and opens it in the zoom viewer when
// tapped. It takes the canvas.Image the view already updates, so the view keeps setting
// its Image as it would without the viewer, and the same minimum size.
type zoomImage struct {
	widget.BaseWidget

	pic    *canvas.Image
	win    fyne.Window
	source func() (title string, full image.Image)
}

// newZoomImage makes pic tappable. source, called on a tap, names the picture and may
// return a larger one than pic shows (read lazily: the thumbnail is small, the original
// is on disk); a nil image means pic's own.
func newZoomImage(win fyne.Window, pic *canvas.Image, source func() (title string, full image.Image)) *zoomImage {
	z := &zoomImage{pic: pic, win: win, source: source}
	z.ExtendBaseWidget(z)
	return z
}

// CreateRenderer draws the picture over the widget's whole area.
func (z *zoomImage) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(z.pic) }

// Tapped opens the picture in the zoom viewer.
func (z *zoomImage) Tapped(*fyne.PointEvent) { z.open() }

// open shows the picture in the zoom viewer and returns it; nil when nothing is shown.
func (z *zoomImage) open() *zoomView {
	var title string
	var img image.Image
	if z.source != nil {
		title, img = z.source()
	}
	if img == nil {
		img = z.pic.Image
	}
	return showZoom(z.win, title, img)
}

// Cursor is a pointing hand over a picture, saying a click does something.
func (z *zoomImage) Cursor() desktop.Cursor {
	if z.pic.Image == nil {
		return desktop.DefaultCursor
	}
	return desktop.PointerCursor
}
