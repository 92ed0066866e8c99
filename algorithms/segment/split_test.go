package segment

import (
	"slices"
	"testing"
)

func TestLabelComponents(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []int32
		W, H   int
		want   []int32
	}{
		{"one label", []int32{7, 7, 7, 7}, 2, 2, []int32{0, 0, 0, 0}},
		// Diagonal neighbours are not 4-connected.
		{"diagonal", []int32{1, 2, 2, 1}, 2, 2, []int32{0, 1, 2, 3}},
		// A row does not wrap onto the next.
		{"no wrap", []int32{2, 2, 1, 1, 2, 2}, 3, 2, []int32{0, 0, 1, 2, 0, 0}},
		{"ring around a hole", []int32{
			1, 1, 1,
			1, 2, 1,
			1, 1, 1}, 3, 3, []int32{
			0, 0, 0,
			0, 1, 0,
			0, 0, 0}},
		{"same label apart", []int32{3, 4, 3}, 3, 1, []int32{0, 1, 2}},
	} {
		if got := labelComponents(tc.labels, tc.W, tc.H); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPixelPieces(t *testing.T) {
	// A 64×48 picture is fitted whole, in 4×3 cells of 16 pixels. Cluster 0 holds the
	// left column of cells and the bottom row, an L, a 16×16 block at the top right
	// apart from it, and a 3×3 speck; it is located in the top left cell. Only the block
	// is a far piece: the L is home, the speck too small.
	img, _ := blocksImage(64, 48, 1)
	m := newTestModel(t, img, Options{Seed: 1})
	if m.p.W != 64 || m.GW != 4 || m.GH != 3 {
		t.Fatalf("fitted %d pixels wide in %d×%d cells, want 64 in 4×3", m.p.W, m.GW, m.GH)
	}
	W := m.p.W
	block := func(n int) bool { y, x := n/W, n%W; return x >= 48 && y < 16 }
	for n := range m.labels {
		y, x := n/W, n%W
		m.labels[n] = 1
		if x < 16 || y >= 32 || block(n) || (x >= 30 && x < 33 && y >= 20 && y < 23) {
			m.labels[n] = 0
		}
	}
	m.geo.loc[0] = 0
	pieces := m.pixelPieces(labelComponents(m.labels, W, m.p.H), 0)
	if len(pieces) != 1 || len(pieces[0]) != 16*16 || !block(pieces[0][0]) {
		sizes := make([]int, len(pieces))
		for i, p := range pieces {
			sizes[i] = len(p)
		}
		t.Fatalf("pieces of %v pixels, want the 256-pixel block", sizes)
	}
	// With no pixel of cluster 0 in its location cell, its largest component, the L, is
	// home.
	for n := range m.labels {
		if y, x := n/W, n%W; y < 16 && x < 16 {
			m.labels[n] = 1
		}
	}
	pieces = m.pixelPieces(labelComponents(m.labels, W, m.p.H), 0)
	if len(pieces) != 1 || !block(pieces[0][0]) {
		t.Errorf("with the location cell empty: %d pieces, want the block", len(pieces))
	}
}
