package samplegen

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"featurelab/internal/accuracy"
)

// TestCardLayouts pins the standard pip layout of every rank.
func TestCardLayouts(t *testing.T) {
	sides := func(rows ...string) []string {
		var s []string
		for _, side := range []string{"left_", "right_"} {
			for _, r := range rows {
				s = append(s, side+r)
			}
		}
		return s
	}
	want := map[int][]string{
		1:  {"centre_middle"},
		2:  {"centre_top", "centre_bottom"},
		3:  {"centre_top", "centre_middle", "centre_bottom"},
		4:  sides("top", "bottom"),
		5:  append(sides("top", "bottom"), "centre_middle"),
		6:  sides("top", "middle", "bottom"),
		7:  append(sides("top", "middle", "bottom"), "centre_quarter"),
		8:  append(sides("top", "middle", "bottom"), "centre_quarter", "centre_three_quarters"),
		9:  append(sides("top", "third", "two_thirds", "bottom"), "centre_middle"),
		10: append(sides("top", "third", "two_thirds", "bottom"), "centre_sixth", "centre_five_sixths"),
	}
	used := make([]bool, len(cardsFeatures))
	for rank := 1; rank <= 10; rank++ {
		var got []string
		for _, p := range cardLayouts[rank-1] {
			got = append(got, cardsFeatures[p])
			used[p] = true
		}
		slices.Sort(got)
		w := slices.Sorted(slices.Values(want[rank]))
		if !slices.Equal(got, w) {
			t.Errorf("rank %d: pips %v, want %v", rank, got, w)
		}
	}
	if i := slices.Index(used, false); i >= 0 {
		t.Errorf("position %s is used by no rank", cardsFeatures[i])
	}
	if len(cardPositions) != len(cardsFeatures) {
		t.Errorf("%d positions, %d names", len(cardPositions), len(cardsFeatures))
	}
}

// TestCardsDrawTheirCode checks every card against its code: red ink at the centre of
// each pip position the code has, white paper at the others that no drawn pip reaches
// (the centre column's sixth and quarter positions are closer than a pip's size, as on
// real cards); and rank r has r pips.
func TestCardsDrawTheirCode(t *testing.T) {
	accuracy.Check(t)
	for _, im := range set(t, "cards").Images {
		rank := strings.Split(im.Name, "_")[0]
		r, err := strconv.Atoi(rank)
		if rank == "A" {
			r, err = 1, nil
		}
		if err != nil || strings.Count(im.Code, "1") != r {
			t.Fatalf("%s: code %s has %d pips", im.Name, im.Code, strings.Count(im.Code, "1"))
		}
		d := decode(t, im)
		for j, p := range cardPositions {
			i := (int(p[1])*d.w + int(p[0])) * 3
			red, green := d.v[i], d.v[i+1]
			isInk := red > 0.6 && green < 0.3
			isPaper := red > 0.85 && green > 0.85
			if im.Code[j] == '0' && nearPip(im.Code, p) {
				continue
			}
			if im.Code[j] == '1' && !isInk || im.Code[j] == '0' && !isPaper {
				t.Errorf("%s: at %s (%v) rgb %.2f %.2f, code bit %c", im.Name, cardsFeatures[j], p, red, green, im.Code[j])
			}
		}
	}
}

// nearPip reports whether a pip the code draws covers or nearly covers point p.
func nearPip(code string, p [2]float64) bool {
	for j, q := range cardPositions {
		if code[j] == '1' && math.Abs(q[0]-p[0]) < 0.65*pipScale && math.Abs(q[1]-p[1]) < 0.6*pipScale {
			return true
		}
	}
	return false
}
