package parallel

import "testing"

// TestForChunksCoversEveryRowOnce checks that the chunks tile [0, n) in ChunkRows
// pieces whatever the number of workers, and that SumChunks adds them in chunk order.
func TestForChunksCoversEveryRowOnce(t *testing.T) {
	for _, n := range []int{0, 1, ChunkRows, ChunkRows + 1, 3*ChunkRows + 7} {
		for _, workers := range []int{1, 3} {
			hits := make([]int, n)
			parts := NewParts(NumChunks(n), 1)
			ForChunks(n, workers, func(_, ch, lo, hi int) {
				if lo != ch*ChunkRows || hi-lo > ChunkRows {
					t.Errorf("n=%d: chunk %d is [%d, %d)", n, ch, lo, hi)
				}
				for i := lo; i < hi; i++ {
					hits[i]++
				}
				parts[ch][0] = float64(hi - lo)
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n=%d workers=%d: row %d visited %d times", n, workers, i, h)
				}
			}
			tot := []float64{0}
			SumChunks(tot, parts)
			if tot[0] != float64(n) {
				t.Errorf("n=%d workers=%d: chunks sum to %v rows", n, workers, tot[0])
			}
		}
	}
}
