package scenes

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Random is a folder of the same kind as Sets, drawn from seed: a BSDS train photo as the
// scene, two cards of the deck, the shadow and the stripes at places that do not touch,
// each object in 20–90 % of 120–200 pictures. Folders drawn from seeds the checks were
// not tuned on say how a rule does on folders it has never seen; it fails when data has
// no photos or no cards.
func Random(data string, seed uint64) (Spec, error) {
	photos, cards, err := photosAndCards(data, 2)
	if err != nil {
		return Spec{}, err
	}
	rng := rand.New(rand.NewPCG(seed, 0xd1ce))
	sizes := []image.Point{{28, 40}, {28, 40}, {44, 34}, {32, 30}} // cards, shadow, stripes
	placed, ok := placeApart(rng, sizes, 192, 128, false)
	if !ok {
		return Spec{}, fmt.Errorf("scenes: seed %d places no four objects apart", seed)
	}
	places := [4]image.Rectangle(placed)
	var p [4]float64
	for j := range p {
		p[j] = 0.2 + 0.7*rng.Float64()
	}
	first := rng.IntN(len(cards))
	second := (first + 1 + rng.IntN(len(cards)-1)) % len(cards)
	scene := strings.TrimSuffix(photos[rng.IntN(len(photos))], ".jpg")
	n := 120 + rng.IntN(81)
	return set(data, scene, n, seed, p, [2]string{strings.TrimSuffix(cards[first], ".png"), strings.TrimSuffix(cards[second], ".png")}, places), nil
}

// RandomLight is a folder drawn from seed as Random draws one, with a lamp's light
// (Light: a glow with no edge, added to the scene's light) where Random puts the stripes,
// over a larger place for the glow to fade in: two cards, a shadow and a light, each in
// 20–90 % of the pictures. A reading must put the shadow in the darker pictures and the
// light in the brighter ones.
func RandomLight(data string, seed uint64) (Spec, error) {
	spec, err := Random(data, seed)
	if err != nil {
		return Spec{}, err
	}
	lamp := &spec.Objects[3]
	lamp.Name, lamp.Kind = "light", Light
	// The glow's place grows about the stripes' own, kept in the picture and clear of
	// the other objects (Random keeps them 3 px apart): where it would meet one, it keeps
	// the stripes' place.
	grown := lamp.Place.Inset(-8).Intersect(image.Rect(0, 0, spec.Width, spec.Height))
	clear := true
	for _, o := range spec.Objects[:3] {
		clear = clear && !o.Place.Overlaps(grown)
	}
	if clear {
		lamp.Place = grown
	}
	return spec, nil
}

// photosAndCards lists the BSDS train photos and the deck's cards (its jokers and backs
// left out) under data, and fails when there is no photo or fewer than minCards cards.
func photosAndCards(data string, minCards int) (photos, cards []string, err error) {
	if photos, err = listed(filepath.Join(data, "bsds500-train", "images"), ".jpg"); err != nil {
		return nil, nil, err
	}
	if cards, err = listed(filepath.Join(data, "cards"), ".png"); err != nil {
		return nil, nil, err
	}
	cards = slices.DeleteFunc(cards, func(c string) bool { return strings.Contains(c, "joker") || strings.Contains(c, "back") })
	if len(photos) == 0 || len(cards) < minCards {
		return nil, nil, fmt.Errorf("scenes: %s has no photos or fewer than %d cards", data, minCards)
	}
	return photos, cards, nil
}

// listed is the names in dir ending in ext, sorted.
func listed(dir, ext string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("scenes: %w", err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ext) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
