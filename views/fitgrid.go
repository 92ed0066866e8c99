package views

import (
	"math"

	"fyne.io/fyne/v2"
)

// fitGrid lays out cells of pictures of one aspect ratio (width over height) in the
// arrangement that shows them largest: in a row, in a column, or in a square-ish grid.
// Three landscape photos side by side in a tall pane came out a third of its width
// and left most of it empty; stacked, they are half as large again. Each cell has a
// caption of fixed height above its picture.
type fitGrid struct {
	aspect  func() float64 // the pictures' width over height; ≤ 0 while there are none
	caption float32        // the height each cell gives its caption
}

// columns is the number of columns that shows n pictures of aspect a largest in a pane
// of size s; ties go to fewer columns.
func (g *fitGrid) columns(n int, s fyne.Size) int {
	a := g.aspect()
	if a <= 0 || n == 0 {
		return max(n, 1)
	}
	best, bestW := 1, float32(-1)
	for c := 1; c <= n; c++ {
		rows := (n + c - 1) / c
		cw := s.Width / float32(c)
		ch := s.Height/float32(rows) - g.caption
		// The picture's width in its cell: the cell's width, or its height's worth.
		w := float32(math.Min(float64(cw), float64(ch)*a))
		if w > bestW+0.5 {
			best, bestW = c, w
		}
	}
	return best
}

// Layout places the cells row by row in the best arrangement.
func (g *fitGrid) Layout(objects []fyne.CanvasObject, s fyne.Size) {
	n := len(objects)
	c := g.columns(n, s)
	rows := (n + c - 1) / c
	cw, ch := s.Width/float32(c), s.Height/float32(max(rows, 1))
	for i, o := range objects {
		o.Move(fyne.NewPos(float32(i%c)*cw, float32(i/c)*ch))
		o.Resize(fyne.NewSize(cw, ch))
	}
}

// MinSize is the largest cell minimum, in one row: the arrangement adapts beyond it.
func (g *fitGrid) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objects {
		m = m.Max(o.MinSize())
	}
	return m
}
