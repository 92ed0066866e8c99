package samplegen

import "testing"

// TestDiceIsUnionOfPips checks the reference construction exactly: pixel values 0 or 255
// only, and each picture is the union of the 3×3 pip blocks its code says are present.
func TestDiceIsUnionOfPips(t *testing.T) {
	for _, im := range set(t, "dice").Images {
		d := decode(t, im)
		want := make([]float64, diceSize*diceSize)
		for j, pip := range dicePips {
			if im.Code[j] == '1' {
				for y := pip[1]; y < pip[1]+pipSize; y++ {
					for x := pip[0]; x < pip[0]+pipSize; x++ {
						want[y*diceSize+x] = 1
					}
				}
			}
		}
		for i, v := range d.v {
			if v != want[i] {
				t.Fatalf("%s (code %s): pixel (%d, %d) = %v, want %v", im.Name, im.Code, i%diceSize, i/diceSize, v, want[i])
			}
		}
	}
}
