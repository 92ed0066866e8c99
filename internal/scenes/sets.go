package scenes

import (
	"image"
	"path/filepath"
)

// Sets are the folders the reading and K are checked on: each a real photo of
// ../shared/data/bsds500-train as the scene, two cards, a shadow and a colour patch at
// fixed places, each in 20–90 % of the pictures, with ±5 % exposure, ±1 pixel jitter and
// JPEG at quality 90. data is the shared data folder (holding bsds500-train and cards).
func Sets(data string) []Spec {
	places := [4]image.Rectangle{image.Rect(18, 16, 46, 56), image.Rect(142, 70, 170, 110),
		image.Rect(96, 14, 140, 48), image.Rect(34, 78, 66, 108)}
	return []Spec{
		set(data, "100075", 120, 1, [4]float64{0.25, 0.87, 0.5, 0.7}, [2]string{"king_of_hearts", "3_of_spades"}, places),
		set(data, "12003", 200, 2, [4]float64{0.9, 0.2, 0.6, 0.4}, [2]string{"ace_of_diamonds", "10_of_clubs"}, places),
		set(data, "105019", 160, 3, [4]float64{0.55, 0.35, 0.8, 0.22}, [2]string{"queen_of_spades", "7_of_hearts"}, places),
	}
}

// Others are four more folders of the same kind — other photos, other cards, the objects
// elsewhere and at other shares — kept apart from Sets while the reading was tuned on
// them, to check that it holds on folders it was not chosen for.
func Others(data string) []Spec {
	return []Spec{
		set(data, "108073", 150, 11, [4]float64{0.3, 0.6, 0.85, 0.45}, [2]string{"jack_of_hearts", "5_of_clubs"},
			[4]image.Rectangle{image.Rect(120, 20, 148, 60), image.Rect(20, 70, 48, 110), image.Rect(60, 20, 104, 54), image.Rect(150, 80, 182, 110)}),
		set(data, "113044", 180, 12, [4]float64{0.75, 0.4, 0.25, 0.9}, [2]string{"ace_of_spades", "9_of_diamonds"},
			[4]image.Rectangle{image.Rect(80, 70, 108, 110), image.Rect(150, 10, 178, 50), image.Rect(10, 20, 54, 54), image.Rect(100, 20, 132, 50)}),
		set(data, "135069", 140, 13, [4]float64{0.5, 0.2, 0.7, 0.6}, [2]string{"queen_of_hearts", "2_of_spades"},
			[4]image.Rectangle{image.Rect(10, 10, 38, 50), image.Rect(60, 80, 88, 120), image.Rect(130, 60, 174, 94), image.Rect(60, 10, 92, 40)}),
		set(data, "118035", 200, 14, [4]float64{0.9, 0.35, 0.5, 0.3}, [2]string{"king_of_spades", "4_of_hearts"},
			[4]image.Rectangle{image.Rect(150, 70, 178, 110), image.Rect(100, 10, 128, 50), image.Rect(20, 60, 64, 94), image.Rect(20, 10, 52, 40)}),
	}
}

// set is one folder of 192×128 pictures of the BSDS photo scene: the two cards, the
// shadow and the stripes at places (in that order), each in the share p of the pictures.
func set(data, scene string, n int, seed uint64, p [4]float64, cards [2]string, places [4]image.Rectangle) Spec {
	card := func(name string) string { return filepath.Join(data, "cards", name+".png") }
	return Spec{Scene: filepath.Join(data, "bsds500-train", "images", scene+".jpg"), Width: 192, Height: 128, N: n,
		Exposure: 0.05, Jitter: 1, Quality: 90, Seed: seed,
		Objects: []Object{
			{Name: "card " + cards[0], Kind: Card, Picture: card(cards[0]), Place: places[0], Presence: p[0]},
			{Name: "card " + cards[1], Kind: Card, Picture: card(cards[1]), Place: places[1], Presence: p[1]},
			{Name: "shadow", Kind: Shadow, Place: places[2], Presence: p[2]},
			{Name: "stripes", Kind: Colour, Place: places[3], Presence: p[3]},
		}}
}

// Match is how one object was found among a result's features.
type Match struct {
	Feature    int     // the feature (column) that agrees best with the object, −1 for none
	Complement bool    // the feature is owned by the pictures without the object
	Agreement  float64 // the share of pictures on which the feature (or its complement) is the object
}

// MatchObjects finds, for every object of truth, the learned feature whose owners agree
// best with the pictures that show it, directly or as its complement. learned is per
// picture the learned code.
func MatchObjects(truth, learned [][]bool) []Match {
	if len(truth) == 0 {
		return nil
	}
	objects, k := len(truth[0]), 0
	if len(learned) > 0 {
		k = len(learned[0])
	}
	out := make([]Match, objects)
	for j := range out {
		out[j] = Match{Feature: -1}
		for f := 0; f < k; f++ {
			same := 0
			for n := range truth {
				if truth[n][j] == learned[n][f] {
					same++
				}
			}
			for _, complement := range []bool{false, true} {
				agree := same
				if complement {
					agree = len(truth) - same
				}
				if a := float64(agree) / float64(len(truth)); a > out[j].Agreement {
					out[j] = Match{Feature: f, Complement: complement, Agreement: a}
				}
			}
		}
	}
	return out
}
