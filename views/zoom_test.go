package views

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// openZoom is the zoom viewer on top of the window, or nil when none is open.
func openZoom(w fyne.Window) *zoomView {
	var found *zoomView
	walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if v, ok := o.(*zoomView); ok && found == nil {
			found = v
		}
	})
	return found
}

// zoomImages lists the tappable pictures under o, in the order they are laid out.
func zoomImages(o fyne.CanvasObject) []*zoomImage {
	var found []*zoomImage
	walk(o, func(o fyne.CanvasObject) {
		if z, ok := o.(*zoomImage); ok {
			found = append(found, z)
		}
	})
	return found
}

// walk calls visit on o and everything drawn inside it.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil {
		return
	}
	visit(o)
	switch o := o.(type) {
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(o).Objects() {
			walk(c, visit)
		}
	case *fyne.Container:
		for _, c := range o.Objects {
			walk(c, visit)
		}
	}
}

// zoomWindow is a 1024×700 window showing a tappable picture of img.
func zoomWindow(t *testing.T, img image.Image) (fyne.Window, *zoomImage) {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("zoom")
	t.Cleanup(w.Close)
	pic := canvas.NewImageFromImage(img)
	pic.SetMinSize(fyne.NewSize(64, 48))
	z := newZoomImage(w, pic, func() (string, image.Image) { return "the picture", nil })
	w.SetContent(z)
	w.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
	return w, z
}

// checker is a picture of w×h pixels, alternately black and white.
func checker(w, h int) image.Image {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		if (i%w+i/w)%2 == 0 {
			img.Pix[i] = 255
		}
	}
	return img
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 0.5 }

// The viewer opens fitted to its view: the picture fills the view along one side and
// stays within it along the other, whether it is smaller or larger than the view.
func TestZoomOpensFittedToTheView(t *testing.T) {
	for _, size := range []image.Point{{40, 30}, {14, 14}, {3000, 200}, {200, 3000}} {
		w, z := zoomWindow(t, checker(size.X, size.Y))
		test.Tap(z)
		v := openZoom(w)
		if v == nil {
			t.Fatalf("%v: tapping the picture opened no viewer", size)
		}
		if !strings.Contains(overlayText(w), "the picture") {
			t.Errorf("%v: the viewer is titled %q", size, overlayText(w))
		}
		view, shown := v.scroll.Size(), v.pic.Size()
		if view.Width < 100 || view.Height < 100 {
			t.Fatalf("%v: the view is %v, in a dialog over a 1024×700 window", size, view)
		}
		if shown.Width > view.Width+0.5 || shown.Height > view.Height+0.5 ||
			!(near(shown.Width, view.Width) || near(shown.Height, view.Height)) {
			t.Errorf("%v: fitted picture %v in a view of %v", size, shown, view)
		}
		if got := shown.Width / shown.Height; math.Abs(float64(got)-float64(size.X)/float64(size.Y)) > 0.01 {
			t.Errorf("%v: shown as %v, out of proportion", size, shown)
		}
		if !strings.HasSuffix(v.level.Text, "% (fit)") {
			t.Errorf("%v: zoom shown as %q", size, v.level.Text)
		}
	}
}

// Zoom in doubles the shown size, zoom out halves it, 1:1 shows the image's own pixels
// (the test canvas has one pixel per unit), and Fit goes back; the keys do the same.
func TestZoomButtonsAndKeys(t *testing.T) {
	w, z := zoomWindow(t, checker(40, 30))
	test.Tap(z)
	v := openZoom(w)
	if v == nil {
		t.Fatal("no viewer")
	}
	fitted := v.pic.Size()
	test.Tap(v.inBtn)
	if got := v.pic.Size(); !near(got.Width, 2*fitted.Width) || !near(got.Height, 2*fitted.Height) {
		t.Fatalf("zoom in from %v shows %v, want twice the size", fitted, got)
	}
	if v.stage.Size().Width < v.pic.Size().Width || v.scroll.Content.MinSize().Width < v.pic.Size().Width {
		t.Fatalf("the enlarged picture (%v) does not scroll: stage %v", v.pic.Size(), v.stage.Size())
	}
	if v.pic.ScaleMode != canvas.ImageScalePixels {
		t.Errorf("enlarged pixels drawn with scale mode %v, want ImageScalePixels", v.pic.ScaleMode)
	}
	test.Tap(v.oneBtn)
	if got := v.pic.Size(); got != fyne.NewSize(40, 30) || v.level.Text != "100%" {
		t.Fatalf("1:1 shows %v at %q, want 40×30 at 100%%", got, v.level.Text)
	}
	test.Tap(v.outBtn)
	if got := v.pic.Size(); got != fyne.NewSize(20, 15) || v.level.Text != "50%" {
		t.Fatalf("zoom out from 1:1 shows %v at %q", got, v.level.Text)
	}
	if v.pic.ScaleMode != canvas.ImageScaleSmooth {
		t.Errorf("a shrunk picture drawn with scale mode %v, want smooth", v.pic.ScaleMode)
	}
	test.Tap(v.fitBtn)
	if got := v.pic.Size(); got != fitted {
		t.Fatalf("Fit shows %v, want %v again", got, fitted)
	}

	c := w.Canvas()
	test.TypeOnCanvas(c, "+")
	if got := v.pic.Size(); !near(got.Width, 2*fitted.Width) {
		t.Fatalf("+ shows %v, want twice %v", got, fitted)
	}
	test.TypeOnCanvas(c, "0")
	test.TypeOnCanvas(c, "-")
	if got := v.pic.Size(); !near(got.Width, fitted.Width/2) {
		t.Fatalf("0 then − shows %v, want half of %v", got, fitted)
	}

	// Esc closes the viewer, and the window's keys are its own again.
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if openZoom(w) != nil || c.OnTypedRune() != nil {
		t.Fatalf("after Esc the viewer is open: %v, the canvas keeps its keys: %v", openZoom(w) != nil, c.OnTypedRune() != nil)
	}
}

// Zoom stops at its limits, and the button that would pass one is disabled.
func TestZoomStopsAtItsLimits(t *testing.T) {
	w, z := zoomWindow(t, checker(40, 30))
	test.Tap(z)
	v := openZoom(w)
	for range 20 {
		v.zoomIn()
	}
	if v.zoom() != maxZoom || !v.inBtn.Disabled() || v.outBtn.Disabled() {
		t.Fatalf("after 20 zooms in: %v, + disabled %v, − disabled %v", v.zoom(), v.inBtn.Disabled(), v.outBtn.Disabled())
	}
	for range 40 {
		v.zoomOut()
	}
	if v.zoom() != minZoom || !v.outBtn.Disabled() || v.inBtn.Disabled() {
		t.Fatalf("after 40 zooms out: %v, − disabled %v", v.zoom(), v.outBtn.Disabled())
	}
}

// A transparent picture shows on white, not on the dialog's dark background.
func TestZoomShowsTransparentPicturesOnWhite(t *testing.T) {
	clear := image.NewNRGBA(image.Rect(0, 0, 60, 40)) // every pixel transparent
	w, z := zoomWindow(t, clear)
	w.Resize(fyne.NewSize(320, 240)) // a small capture: the software painter is slow under -race
	test.Tap(z)
	v := openZoom(w)
	if v == nil {
		t.Fatal("no viewer")
	}
	if v.stage.Objects[0] != v.backdrop || v.backdrop.Position() != v.pic.Position() || v.backdrop.Size() != v.pic.Size() {
		t.Fatalf("the backdrop (%v at %v) is not right behind the picture (%v at %v)",
			v.backdrop.Size(), v.backdrop.Position(), v.pic.Size(), v.pic.Position())
	}
	if r, g, b, a := v.backdrop.FillColor.RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
		t.Fatalf("backdrop colour %v, want opaque white", v.backdrop.FillColor)
	}
	centre := func() color.NRGBA {
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.pic)
		x, y := int(pos.X+v.pic.Size().Width/2), int(pos.Y+v.pic.Size().Height/2)
		return color.NRGBAModel.Convert(w.Canvas().Capture().At(x, y)).(color.NRGBA)
	}
	if got := centre(); got != (color.NRGBA{255, 255, 255, 255}) {
		t.Fatalf("the transparent picture is drawn as %v, want white", got)
	}
	// Without the backdrop the same pixel is the dialog's background: the check above
	// sees the backdrop, not a white theme.
	v.backdrop.Hide()
	if got := centre(); got == (color.NRGBA{255, 255, 255, 255}) {
		t.Fatal("without the backdrop the picture still shows on white: the test proves nothing")
	}
}

// A tapped thumbnail of the data set opens at the working size (larger than the
// thumbnail), titled with its name; closing the viewer and tapping again reopens it.
func TestTappingAThumbnailEnlargesIt(t *testing.T) {
	ui := loadedUI(t)
	ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
	ui.tabs.SelectIndex(tabDataset)
	tapFirstThumbnail := func() *zoomView {
		t.Helper()
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(ui.dataset.grid)
		test.TapCanvas(ui.win.Canvas(), pos.AddXY(20, 20))
		return openZoom(ui.win)
	}
	v := tapFirstThumbnail()
	if v == nil {
		t.Fatal("tapping the first thumbnail opened no viewer")
	}
	ds := ui.dataset.prepared.Data
	if b := v.img.Bounds(); b.Dx() != ds.Width || b.Dy() != ds.Height {
		t.Fatalf("the viewer shows a %v picture, want the working size %d×%d", b, ds.Width, ds.Height)
	}
	if thumb := ui.dataset.thumbs[0].Bounds(); thumb.Dx() >= ds.Width {
		t.Fatalf("the thumbnail is %v: the test cannot tell it from the full picture", thumb)
	}
	if got := overlayText(ui.win); !strings.Contains(got, ds.Names[0]) {
		t.Fatalf("the viewer is titled %q, want %s", got, ds.Names[0])
	}
	closeZoom(t, ui.win)
	if tapFirstThumbnail() == nil {
		t.Fatal("the same thumbnail did not open again: its selection was kept")
	}
}

// closeZoom taps the viewer's Close button.
func closeZoom(t *testing.T, w fyne.Window) {
	t.Helper()
	var close *widget.Button
	walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Close" {
			close = b
		}
	})
	if close == nil {
		t.Fatal("the viewer has no Close button")
	}
	test.Tap(close)
	if openZoom(w) != nil {
		t.Fatal("Close left the viewer open")
	}
}

// A tapped feature opens in the viewer, and so do the codes' detail pictures and the
// segmentation's original.
func TestTappingResultPicturesEnlargesThem(t *testing.T) {
	ui := smallUI(t)
	p := runAlgorithm(t, ui, "kmeans", map[string]string{"k": "4", "restarts": "2"})
	ui.tabs.SelectIndex(tabFeatures)
	pics := zoomImages(ui.features.cards)
	if len(pics) == 0 {
		t.Fatal("the features view shows no tappable picture")
	}
	test.Tap(pics[0])
	if v := openZoom(ui.win); v == nil || v.img != p.Features[0].Image {
		t.Fatalf("tapping the first feature shows %v", v)
	}
	if got, want := overlayText(ui.win), "cluster #1"; !strings.Contains(got, want) {
		t.Fatalf("the viewer is titled %q, want %q", got, want)
	}
	closeZoom(t, ui.win)

	ui.tabs.SelectIndex(tabCodes)
	ui.codes.table.Select(widgetCell(2, colName))
	detail := zoomImages(ui.codes.box)
	if len(detail) != 2 {
		t.Fatalf("the codes view has %d tappable pictures, want the image and its reconstruction", len(detail))
	}
	test.Tap(detail[1])
	if v := openZoom(ui.win); v == nil || v.img != ui.codes.detailRec.Image {
		t.Fatal("tapping the reconstruction did not show it")
	}
	if got, want := overlayText(ui.win), p.Analysis.Data.Names[2]+" — reconstruction"; !strings.Contains(got, want) {
		t.Fatalf("the viewer is titled %q, want %q", got, want)
	}
	closeZoom(t, ui.win)

	ui.tabs.SelectIndex(tabSegmentation)
	seg := zoomImages(ui.segment.box)
	if len(seg) != 3 {
		t.Fatalf("the segmentation view has %d tappable pictures, want 3", len(seg))
	}
	test.Tap(seg[0])
	if v := openZoom(ui.win); v == nil || v.img != ui.segment.pics[0].Image {
		t.Fatal("tapping the original did not show it")
	}
	closeZoom(t, ui.win)
	// Nothing segmented yet: the segments picture is empty, and a tap opens nothing.
	test.Tap(seg[1])
	if openZoom(ui.win) != nil {
		t.Fatal("an empty picture opened the viewer")
	}
}
