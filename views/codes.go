package views

import (
	"fmt"
	"image"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// Columns of the codes table.
const (
	colImage = iota
	colName
	colCode
	colRecon
	colResidual
	codesColumns
)

var codesHeaders = [codesColumns]string{"Image", "Name", "Code", "Recon.", "Residual"}

// codesWidths are the columns' widths; the code column is sized to the codes shown
// (codeWidth). Together they fit the table's share of a 1024-pixel window: wider ones
// cut off the reconstruction and residual.
var codesWidths = [codesColumns]float32{72, 120, 80, 72, 68}

// codesView lists every image with its binary code, reconstruction and residual, counts
// the distinct codes, and shows a selected image large beside its reconstruction.
type codesView struct {
	ui        *UI
	counts    *widget.Label
	info      *infoMark // what a code and a residual are
	table     *escTable
	detailImg *canvas.Image
	detailRec *canvas.Image
	detailTxt *widget.Label
	box       fyne.CanvasObject

	pres *app.Presentation
	// applied is the folder coded with pres's features when it is shown (nil: the images
	// pres learned on); order lists its images in the table's order (rows), and
	// firstOdd, shown with it, puts the unexplained first; back returns to the images
	// learned on.
	applied    *app.AppliedFolder
	order      []int
	firstOdd   *escCheck
	back       *widget.Button
	appliedBar *fyne.Container
	highlight  int          // feature whose owners are marked, −1 for none
	owns       map[int]bool // images (not rows) marked
	// scrolledTo is the row markOwners last brought into view: the first owner.
	scrolledTo int
	selected   int // image (not row) shown in the detail pane, −1 for none
}

func newCodesView(ui *UI) *codesView {
	v := &codesView{ui: ui, highlight: -1, selected: -1}
	v.counts = widget.NewLabel("")
	v.counts.Wrapping = fyne.TextWrapWord
	v.info = newInfoMark()
	v.table = newTableWithHeaders(
		func() (int, int) {
			return v.rows(), codesColumns
		},
		newCodesCell,
		v.updateCell,
	)
	// The header template sets the row numbers' column width: wide enough for five
	// digits, so that row 24 of a folder of 10 000 does not show as "2".
	v.table.CreateHeader = func() fyne.CanvasObject { return widget.NewLabel("00000") }
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		switch {
		case id.Row < 0 && id.Col >= 0:
			l.SetText(codesHeaders[id.Col])
		case id.Col < 0 && id.Row >= 0:
			l.SetText(fmt.Sprint(id.Row + 1))
		default:
			l.SetText("")
		}
	}
	for c, w := range codesWidths {
		v.table.SetColumnWidth(c, w)
	}
	v.table.OnSelected = func(id widget.TableCellID) { v.selectImage(v.imageAt(id.Row)) }
	v.firstOdd = newCheck("Unexplained first", func(bool) { v.reorder() })
	v.firstOdd.SetChecked(true)
	v.back = widget.NewButton("Back to the training images", func() { v.ui.showTraining() })
	v.appliedBar = container.NewHBox(v.firstOdd, v.back)
	v.appliedBar.Hide()

	v.detailImg = bigImage()
	v.detailRec = bigImage()
	v.detailTxt = widget.NewLabel("Select an image to see it beside its reconstruction.")
	v.detailTxt.Wrapping = fyne.TextWrapWord
	detail := container.NewBorder(nil, v.detailTxt, nil, nil,
		container.NewGridWithColumns(2, v.zoomable(v.detailImg, "image"), v.zoomable(v.detailRec, "reconstruction")))
	split := container.NewHSplit(v.table, detail)
	split.Offset = 0.7
	v.box = container.NewBorder(container.NewVBox(withInfo(v.counts, v.info), v.appliedBar), nil, nil, nil, split)
	return v
}

func (v *codesView) object() fyne.CanvasObject { return v.box }

// zoomable makes a detail picture open in the zoom viewer, titled with the selected
// image's name and what the picture is.
func (v *codesView) zoomable(pic *canvas.Image, what string) *zoomImage {
	return newZoomImage(v.ui.win, pic, func() (string, image.Image) {
		if v.pres == nil || v.selected < 0 || v.selected >= len(v.names()) {
			return what, nil
		}
		return v.names()[v.selected] + " — " + what, nil
	})
}

func bigImage() *canvas.Image {
	c := canvas.NewImageFromImage(nil)
	c.FillMode = canvas.ImageFillContain
	c.ScaleMode = canvas.ImageScaleFastest
	// Small minimums, so the table beside them keeps its columns at 1024 pixels; the
	// pictures grow with the pane.
	c.SetMinSize(fyne.NewSize(120, 90))
	return c
}

func newCodesCell() fyne.CanvasObject {
	img := canvas.NewImageFromImage(nil)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(64, 48))
	label := widget.NewLabel("")
	label.Truncation = fyne.TextTruncateEllipsis
	return container.NewStack(img, label, newCodeBits())
}

func (v *codesView) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	stack := o.(*fyne.Container)
	img := stack.Objects[0].(*canvas.Image)
	label := stack.Objects[1].(*widget.Label)
	bits := stack.Objects[2].(*codeBits)
	if v.pres == nil || id.Row >= v.rows() {
		return
	}
	i := v.imageAt(id.Row)
	img.Hide()
	bits.Hide()
	label.Show()
	label.TextStyle = fyne.TextStyle{}
	label.Importance = widget.MediumImportance
	odd := v.applied != nil && v.applied.Code(i).Unexplained
	switch id.Col {
	case colImage, colRecon:
		img.Image = v.thumb(i, id.Col == colRecon)
		img.Show()
		label.Hide()
		img.Refresh()
		return
	case colName:
		label.SetText(v.names()[i])
	case colCode:
		if probs := v.probabilities(i); probs != nil {
			bits.set(probs, v.highlight)
			bits.Show()
			label.Hide()
			return
		}
		label.TextStyle = fyne.TextStyle{Monospace: true}
		label.SetText(v.codes()[i])
	case colResidual:
		if v.applied != nil {
			label.SetText(residualCell(v.applied.Code(i)))
		} else {
			label.SetText(fmt.Sprintf("%.4g", v.pres.Residuals[i]))
		}
	}
	switch {
	case v.owns[i]:
		label.Importance = widget.HighImportance
		// Bold monospace is not in every theme (the test theme lacks it).
		label.TextStyle.Bold = !label.TextStyle.Monospace
	case odd && id.Col != colCode:
		label.Importance = widget.DangerImportance
	}
	label.Refresh()
}

// unexplainedMark precedes the residual of an image the features do not explain.
const unexplainedMark = "! "

// residualCell is an applied image's residual as the table shows it: marked when the
// features do not explain it.
func residualCell(c app.Code) string {
	if c.Unexplained {
		return fmt.Sprintf("%s%.3g", unexplainedMark, c.Residual)
	}
	return fmt.Sprintf("%.3g", c.Residual)
}

// rows is the number of images listed.
func (v *codesView) rows() int { return len(v.codes()) }

// imageAt is the image listed in row r.
func (v *codesView) imageAt(r int) int {
	if v.applied != nil && r >= 0 && r < len(v.order) {
		return v.order[r]
	}
	return r
}

// rowOf is the row image i is listed in.
func (v *codesView) rowOf(i int) int {
	if v.applied != nil {
		for r, j := range v.order {
			if j == i {
				return r
			}
		}
	}
	return i
}

// names and codes are those of the images listed, in their own order.
func (v *codesView) names() []string {
	switch {
	case v.applied != nil:
		return v.applied.Names
	case v.pres != nil:
		return v.pres.Analysis.Data.Names
	}
	return nil
}

func (v *codesView) codes() []string {
	switch {
	case v.applied != nil:
		return v.applied.Codes
	case v.pres != nil:
		return v.pres.Codes
	}
	return nil
}

// thumb is image i's thumbnail, or its reconstruction's.
func (v *codesView) thumb(i int, recon bool) image.Image {
	switch {
	case v.applied != nil && recon:
		return v.applied.Recon[i]
	case v.applied != nil:
		return v.applied.Thumbs[i]
	case recon:
		return v.pres.Recon[i]
	}
	return v.pres.Thumbs[i]
}

// probabilities are image i's probabilities of owning each feature, or nil.
func (v *codesView) probabilities(i int) []float64 {
	if v.applied != nil {
		return v.applied.Probabilities(i)
	}
	return v.pres.Probabilities(i)
}

// owners are the images listed that own feature k.
func (v *codesView) owners(k int) []int {
	if v.applied != nil {
		return v.applied.Owners[k]
	}
	return v.pres.Owners[k]
}

// show lists a presentation's codes; call on the UI goroutine.
func (v *codesView) show(p *app.Presentation) {
	v.pres, v.applied, v.order, v.highlight, v.owns, v.selected = p, nil, nil, -1, nil, -1
	v.appliedBar.Hide()
	counts := codeCountsText(p.CodeCounts)
	if p.Probabilities(0) != nil {
		counts += shadedBitsNote
	}
	v.counts.SetText(counts)
	v.info.set(explainCode, explainResidual)
	v.fresh()
}

// showApplied lists the images of a folder coded with the shown result's features,
// the unexplained first unless the user turned that off; call on the UI goroutine.
func (v *codesView) showApplied(f *app.AppliedFolder) {
	v.applied, v.highlight, v.owns, v.selected = f, -1, nil, -1
	v.order = f.Order(v.firstOdd.Checked)
	counts := f.Summary() + ", marked “" + strings.TrimSpace(unexplainedMark) + "” in red and listed first when “Unexplained first” is ticked. " +
		codeCountsText(f.CodeCounts)
	if f.Probabilities(0) != nil {
		counts += shadedNewBitsNote
	}
	v.counts.SetText(counts)
	v.info.set(explainCode, explainNewResidual)
	v.appliedBar.Show()
	v.fresh()
}

// reorder lists the applied folder's images again, the unexplained first or not, and
// keeps the image selected in view.
func (v *codesView) reorder() {
	if v.applied == nil {
		return
	}
	v.order = v.applied.Order(v.firstOdd.Checked)
	v.table.Refresh()
	if v.selected >= 0 {
		r := v.rowOf(v.selected)
		v.table.ScrollTo(widget.TableCellID{Row: r, Col: colName})
		v.table.Select(widget.TableCellID{Row: r, Col: colName})
	}
}

// fresh sizes the columns to the codes listed and empties the detail pane.
func (v *codesView) fresh() {
	code := codeWidth(v.codes(), v.probabilities(0) != nil)
	v.table.SetColumnWidth(colCode, code)
	v.table.SetColumnWidth(colName, nameWidth(code))
	v.detailImg.Image, v.detailRec.Image = nil, nil
	v.detailImg.Refresh()
	v.detailRec.Refresh()
	v.detailTxt.SetText("Select an image to see it beside its reconstruction.")
	v.table.UnselectAll()
	v.table.Refresh()
}

// clear empties the view when the data set changes.
func (v *codesView) clear() {
	v.pres, v.applied, v.order, v.highlight, v.owns, v.selected = nil, nil, nil, -1, nil, -1
	v.appliedBar.Hide()
	v.counts.SetText("")
	v.info.set()
	v.detailImg.Image, v.detailRec.Image = nil, nil
	v.detailImg.Refresh()
	v.detailRec.Refresh()
	v.detailTxt.SetText("Select an image to see it beside its reconstruction.")
	v.table.UnselectAll()
	v.table.Refresh()
}

// markOwners highlights the images that own feature k.
func (v *codesView) markOwners(k int) {
	if v.pres == nil || k < 0 || k >= len(v.pres.Owners) {
		return
	}
	v.highlight = k
	v.owns = map[int]bool{}
	first := -1 // the first row listing an owner
	for _, i := range v.owners(k) {
		v.owns[i] = true
		if r := v.rowOf(i); first < 0 || r < first {
			first = r
		}
	}
	v.table.Refresh()
	if first >= 0 {
		// The owners are coloured; the first of them must be in sight, or nothing
		// highlighted is (cluster #3's owners began at row 44). It is selected too, so
		// the pane beside the table shows it large, and the arrow keys go on from it.
		v.table.ScrollTo(widget.TableCellID{Row: first, Col: colName})
		v.table.Select(widget.TableCellID{Row: first, Col: colName})
		v.scrolledTo = first
	}
}

// selectImage shows image i large beside its reconstruction and code.
func (v *codesView) selectImage(i int) {
	if v.pres == nil || i < 0 || i >= v.rows() {
		return
	}
	v.selected = i
	a := v.pres.Analysis
	var residual string
	if f := v.applied; f != nil {
		v.detailImg.Image, v.detailRec.Image = f.Image(i), f.Reconstruction(i)
		residual = f.ResidualText(i)
	} else {
		v.detailImg.Image, v.detailRec.Image = a.Data.Image(i), a.Reconstruction(i)
		residual = fmt.Sprintf("residual %.4g", v.pres.Residuals[i])
		if e := a.Exposure.PictureText(i); e != "" {
			residual += "; " + e
		}
	}
	v.detailImg.Refresh()
	v.detailRec.Refresh()
	unsure := app.UnsureText(v.probabilities(i))
	if v.applied != nil {
		unsure = app.UnsureTextOfNew(v.probabilities(i))
	}
	if unsure != "" {
		unsure = "; " + unsure
	}
	v.detailTxt.SetText(fmt.Sprintf("%s — code %s%s, %s (left: the image; right: its reconstruction from the code)",
		v.names()[i], v.codes()[i], unsure, residual))
}

// The line above the codes table lists at most shownCodeCounts of the commonest codes,
// and stops before it passes shownCountsRunes characters (about three lines at 1 024
// pixels); a code longer than shownCodeDigits shows its first digits and "…" — the table
// has it whole. Without those bounds a run with many codes, or long ones, makes the line
// many lines tall and the window taller than the screen.
const (
	shownCodeCounts  = 24
	shownCountsRunes = 360
	shownCodeDigits  = 24
)

// codeCountsText is the line above the codes table: how many distinct codes, and the
// commonest with their counts.
func codeCountsText(counts []app.CodeCount) string {
	text := fmt.Sprintf("%d distinct codes: ", len(counts))
	shown := 0
	for _, c := range counts[:min(len(counts), shownCodeCounts)] {
		code := c.Code
		if r := []rune(code); len(r) > shownCodeDigits {
			code = string(r[:shownCodeDigits]) + "…"
		}
		part := fmt.Sprintf("%s ×%d", code, c.Count)
		if shown > 0 {
			part = ", " + part
		}
		if shown > 0 && len([]rune(text+part)) > shownCountsRunes {
			break
		}
		text += part
		shown++
	}
	if rest := len(counts) - shown; rest > 0 {
		text += fmt.Sprintf(" and %d more, each on fewer images", rest)
	}
	return text
}

// codeWidth is the code column's width for codes: room for their K binary digits
// as the cell's label lays them out (the text and the label's inner padding on both
// sides), or for K squares when they are shaded by probability (shaded), at least the
// default. The padding is counted in full: counted short, the last digits show as an
// ellipsis.
func codeWidth(codes []string, shaded bool) float32 {
	k := 0
	if len(codes) > 0 {
		k = len(codes[0])
	}
	if shaded { // drawn as squares (codeBits)
		return max(codesWidths[colCode], bitsWidth(k)+2*theme.InnerPadding()+theme.Padding())
	}
	code := widget.NewLabelWithStyle(strings.Repeat("0", k), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	return max(codesWidths[colCode], code.MinSize().Width+theme.Padding())
}

// minNameWidth is the narrowest the name column gets for long codes: about nine
// characters, with the whole name in the detail pane.
const minNameWidth = 76

// nameWidth is the name column's width beside a code column of width code: what the
// code takes beyond its default comes off the names, down to minNameWidth, so the
// table keeps its width at 1024 pixels up to K = 16 (beyond, it scrolls).
func nameWidth(code float32) float32 {
	return max(minNameWidth, codesWidths[colName]-(code-codesWidths[colCode]))
}
