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

	"featurelab/app/report"
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
// (codeWidth). Together they fit the table's share of a 1024-pixel window: at the old
// widths (90, 170, 120, 90, 100) the reconstruction and residual were cut off.
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

	pres      *report.Presentation
	highlight int // feature whose owners are marked, −1 for none
	owns      map[int]bool
	// scrolledTo is the row markOwners last brought into view: the first owner.
	scrolledTo int
	selected   int
}

func newCodesView(ui *UI) *codesView {
	v := &codesView{ui: ui, highlight: -1, selected: -1}
	v.counts = widget.NewLabel("")
	v.counts.Wrapping = fyne.TextWrapWord
	v.info = newInfoMark()
	v.table = newTableWithHeaders(
		func() (int, int) {
			if v.pres == nil {
				return 0, codesColumns
			}
			return len(v.pres.Codes), codesColumns
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
	v.table.OnSelected = func(id widget.TableCellID) { v.selectImage(id.Row) }

	v.detailImg = bigImage()
	v.detailRec = bigImage()
	v.detailTxt = widget.NewLabel("Select an image to see it beside its reconstruction.")
	v.detailTxt.Wrapping = fyne.TextWrapWord
	detail := container.NewBorder(nil, v.detailTxt, nil, nil,
		container.NewGridWithColumns(2, v.zoomable(v.detailImg, "image"), v.zoomable(v.detailRec, "reconstruction")))
	split := container.NewHSplit(v.table, detail)
	split.Offset = 0.7
	v.box = container.NewBorder(withInfo(v.counts, v.info), nil, nil, nil, split)
	return v
}

func (v *codesView) object() fyne.CanvasObject { return v.box }

// zoomable makes a detail picture open in the zoom viewer, titled with the selected
// image's name and what the picture is.
func (v *codesView) zoomable(pic *canvas.Image, what string) *zoomImage {
	return newZoomImage(v.ui.win, pic, func() (string, image.Image) {
		if v.pres == nil || v.selected < 0 || v.selected >= len(v.pres.Codes) {
			return what, nil
		}
		return v.pres.Analysis.Data.Names[v.selected] + " — " + what, nil
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
	if v.pres == nil || id.Row >= len(v.pres.Codes) {
		return
	}
	i := id.Row
	img.Hide()
	bits.Hide()
	label.Show()
	label.TextStyle = fyne.TextStyle{}
	label.Importance = widget.MediumImportance
	switch id.Col {
	case colImage:
		img.Image = v.pres.Thumbs[i]
		img.Show()
		label.Hide()
		img.Refresh()
		return
	case colRecon:
		img.Image = v.pres.Recon[i]
		img.Show()
		label.Hide()
		img.Refresh()
		return
	case colName:
		label.SetText(v.pres.Analysis.Data.Names[i])
	case colCode:
		if probs := v.pres.Probabilities(i); probs != nil {
			bits.set(probs, v.highlight)
			bits.Show()
			label.Hide()
			return
		}
		label.TextStyle = fyne.TextStyle{Monospace: true}
		label.SetText(v.pres.Codes[i])
	case colResidual:
		label.SetText(fmt.Sprintf("%.4g", v.pres.Residuals[i]))
	}
	if v.owns[i] {
		label.Importance = widget.HighImportance
		// Bold monospace is not in every theme (the test theme lacks it).
		label.TextStyle.Bold = !label.TextStyle.Monospace
	}
	label.Refresh()
}

// show lists a presentation's codes; call on the UI goroutine.
func (v *codesView) show(p *report.Presentation) {
	v.pres, v.highlight, v.owns, v.selected = p, -1, nil, -1
	counts := codeCountsText(p.CodeCounts)
	if p.Probabilities(0) != nil {
		counts += shadedBitsNote
	}
	v.counts.SetText(counts)
	v.info.set(explainCode, explainResidual)
	code := codeWidth(p)
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
	v.pres, v.highlight, v.owns, v.selected = nil, -1, nil, -1
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
	first := -1
	for _, i := range v.pres.Owners[k] {
		v.owns[i] = true
		if first < 0 || i < first {
			first = i
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
	if v.pres == nil || i < 0 || i >= len(v.pres.Codes) {
		return
	}
	v.selected = i
	a := v.pres.Analysis
	v.detailImg.Image = a.Data.Image(i)
	v.detailRec.Image = a.Reconstruction(i)
	v.detailImg.Refresh()
	v.detailRec.Refresh()
	unsure := report.UnsureText(v.pres.Probabilities(i))
	if unsure != "" {
		unsure = "; " + unsure
	}
	v.detailTxt.SetText(fmt.Sprintf("%s — code %s%s, residual %.4g (left: the image; right: its reconstruction from the code)",
		a.Data.Names[i], v.pres.Codes[i], unsure, v.pres.Residuals[i]))
}

// The line above the codes table lists at most shownCodeCounts of the commonest codes,
// and stops before it passes shownCountsRunes characters (about three lines at 1 024
// pixels); a code longer than shownCodeDigits shows its first digits and "…" — the table
// has it whole. All 202 codes of a run on the ORL faces made the line eleven lines tall,
// and 24 codes of 156 bits (the IBP on ORL) made the window 1 219 pixels tall.
const (
	shownCodeCounts  = 24
	shownCountsRunes = 360
	shownCodeDigits  = 24
)

// codeCountsText is the line above the codes table: how many distinct codes, and the
// commonest with their counts.
func codeCountsText(counts []report.CodeCount) string {
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

// codeWidth is the code column's width for a presentation: room for its K binary digits
// as the cell's label lays them out (the text and the label's inner padding on both
// sides), or for its K squares when they are shaded by probability, at least the default. The padding was once counted short, and 16 digits
// showed as 14 and an ellipsis.
func codeWidth(p *report.Presentation) float32 {
	k := 0
	if len(p.Codes) > 0 {
		k = len(p.Codes[0])
	}
	if p.Probabilities(0) != nil { // drawn as squares (codeBits)
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
