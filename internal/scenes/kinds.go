package scenes

import (
	"fmt"
	"image"
	"math/rand/v2"
	"path/filepath"
	"strings"
)

// Kinds of folder RandomKind draws beyond Random's: each puts a reading in a place the
// four objects apart on 192 × 128 pictures never do.
const (
	// KindOcclusion: the second card lies over the first, covering about a fifth of
	// it, and jitters by ±2 px: where both are in, only the top card's edge is whole.
	KindOcclusion = "occlusion"
	// KindRare: one card in 5–9 % of the pictures and the stripes in 91–95 %: an object
	// few pictures show, and one nearly every picture does (its absence is the news).
	KindRare = "rare"
	// KindMany: six objects (four cards, the shadow and the stripes) on 256 × 160.
	KindMany = "many"
	// KindPortrait: the four objects on upright pictures, 128 × 192.
	KindPortrait = "portrait"
	// KindWide: the four objects on a wide strip, 288 × 96.
	KindWide = "wide"
)

// Kinds lists RandomKind's kinds in the order the checks count them.
var Kinds = []string{KindOcclusion, KindRare, KindMany, KindPortrait, KindWide}

// RandomKind is a folder of the given kind drawn from seed: a BSDS train photo as the
// scene, cards of the deck, the shadow and the stripes, each object in 20–90 % of
// 120–200 pictures unless the kind says otherwise, exposure ±5 %, jitter ±1 px, JPEG at
// 90. The truth is written as for every folder (Write).
func RandomKind(data string, seed uint64, kind string) (Spec, error) {
	photos, cards, err := photosAndCards(data, 4)
	if err != nil {
		return Spec{}, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b1d5))
	w, h, nCards := 192, 128, 2
	switch kind {
	case KindOcclusion, KindRare:
	case KindMany:
		w, h, nCards = 256, 160, 4
	case KindPortrait:
		w, h = 128, 192
	case KindWide:
		w, h = 288, 96
	default:
		return Spec{}, fmt.Errorf("scenes: no kind of folder %q (one of %v)", kind, Kinds)
	}
	spec := Spec{Scene: filepath.Join(data, "bsds500-train", "images", photos[rng.IntN(len(photos))]),
		Width: w, Height: h, N: 120 + rng.IntN(81), Exposure: 0.05, Jitter: 1, Quality: 90, Seed: seed}
	picked := rng.Perm(len(cards))[:nCards]
	sizes := make([]image.Point, 0, nCards+2)
	for range nCards {
		sizes = append(sizes, image.Pt(28, 40))
	}
	sizes = append(sizes, image.Pt(44, 34), image.Pt(32, 30)) // the shadow, the stripes
	occlude := kind == KindOcclusion
	places, ok := placeApart(rng, sizes, w, h, occlude)
	if !ok {
		return Spec{}, fmt.Errorf("scenes: no room for %d objects on %d × %d", len(sizes), w, h)
	}
	for j := range nCards {
		name := strings.TrimSuffix(cards[picked[j]], ".png")
		spec.Objects = append(spec.Objects, Object{Name: "card " + name, Kind: Card,
			Picture: filepath.Join(data, "cards", cards[picked[j]]), Place: places[j]})
	}
	spec.Objects = append(spec.Objects,
		Object{Name: "shadow", Kind: Shadow, Place: places[nCards]},
		Object{Name: "stripes", Kind: Colour, Place: places[nCards+1]})
	for j := range spec.Objects {
		spec.Objects[j].Presence = 0.2 + 0.7*rng.Float64()
	}
	switch kind {
	case KindOcclusion:
		spec.Jitter = 2
	case KindRare:
		spec.Objects[0].Presence = 0.05 + 0.04*rng.Float64()
		spec.Objects[len(spec.Objects)-1].Presence = 0.91 + 0.04*rng.Float64()
	}
	return spec, nil
}

// placeApart places rectangles of the given sizes on a w × h picture, 2 px in from its
// edges and 3 px apart from each other; with occlude, the second lies over the first,
// shifted by four fifths of its width (a fifth of it covered) and a few pixels down or up.
func placeApart(rng *rand.Rand, sizes []image.Point, w, h int, occlude bool) ([]image.Rectangle, bool) {
	places := make([]image.Rectangle, 0, len(sizes))
	inside := image.Rect(2, 2, w-2, h-2)
	clear := func(r image.Rectangle) bool {
		for _, q := range places {
			if q.Inset(-3).Overlaps(r) {
				return false
			}
		}
		return r.In(inside)
	}
	for j, s := range sizes {
		placed := false
		for try := 0; try < 10000 && !placed; try++ {
			var r image.Rectangle
			if occlude && j == 1 {
				first := places[0]
				r.Min = first.Min.Add(image.Pt(first.Dx()*4/5, rng.IntN(9)-4))
				r.Max = r.Min.Add(s)
				if placed = r.In(inside); !placed {
					return nil, false
				}
			} else {
				r.Min = image.Pt(2+rng.IntN(max(1, w-4-s.X)), 2+rng.IntN(max(1, h-4-s.Y)))
				r.Max = r.Min.Add(s)
				placed = clear(r)
				if occlude && j == 0 {
					// Room for the second card to its right, a few pixels up or down.
					placed = placed && r.Max.X+s.X < w-4 && r.Min.Y >= 6 && r.Max.Y <= h-6
				}
			}
			if placed {
				places = append(places, r)
			}
		}
		if !placed {
			return nil, false
		}
	}
	return places, true
}
