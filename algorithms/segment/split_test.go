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

func TestJoinedHome(t *testing.T) {
	// A 64×48 picture is fitted whole, in 4×3 cells of 16 pixels. Cluster 0 holds the
	// left column of cells and the bottom row, an L, and the top right cell apart from
	// it; it is located in the top left cell. The bottom right cell is joined to the
	// location through the L, the top right one is not.
	img, _ := blocksImage(64, 48, 1)
	m := newTestModel(t, img, Options{Seed: 1})
	if m.p.W != 64 || m.GW != 4 || m.GH != 3 {
		t.Fatalf("fitted %d pixels wide in %d×%d cells, want 64 in 4×3", m.p.W, m.GW, m.GH)
	}
	for n := range m.labels {
		y, x := n/m.p.W, n%m.p.W
		m.labels[n] = 1
		if x < 16 || y >= 32 || (x >= 48 && y < 16) {
			m.labels[n] = 0
		}
	}
	m.geo.loc[0] = 0
	comp := labelComponents(m.labels, m.p.W, m.p.H)
	for _, tc := range []struct {
		cell int
		want bool
	}{{2*4 + 3, true}, {0*4 + 3, false}, {1*4 + 0, true}} {
		if got := m.joinedHome(comp, 0, []int{tc.cell}); got != tc.want {
			t.Errorf("cell %d: joined %v, want %v", tc.cell, got, tc.want)
		}
	}
	// With no pixel of cluster 0 in its location cell, its largest component is home.
	m.geo.loc[0] = 1
	for n := range m.labels {
		if y, x := n/m.p.W, n%m.p.W; y < 16 && x < 16 {
			m.labels[n] = 1
		}
	}
	comp = labelComponents(m.labels, m.p.W, m.p.H)
	if !m.joinedHome(comp, 0, []int{2*4 + 3}) || m.joinedHome(comp, 0, []int{3}) {
		t.Error("the largest component is not taken as home")
	}
}
