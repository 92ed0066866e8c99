package segment

import "featurelab/internal/parallel"

// chunkPixels is the number of pixels of one unit of parallel work. Chunks, and so the
// order in which their partial sums are added, depend only on the image size, which is
// what keeps results identical whatever the number of workers.
const chunkPixels = 4096

// numChunks is the number of chunks n pixels are split into.
func numChunks(n int) int { return (n + chunkPixels - 1) / chunkPixels }

// forChunks calls fn(w, chunk, lo, hi) for every chunk of the pixel range [0, n) on
// workers goroutines; w ∈ [0, workers) names the calling worker so fn can use per-worker
// scratch. It returns when every chunk is done.
func forChunks(n, workers int, fn func(w, chunk, lo, hi int)) {
	parallel.For(workers, numChunks(n), func(w, c int) {
		fn(w, c, c*chunkPixels, min((c+1)*chunkPixels, n))
	})
}

// sumChunks adds the per-chunk partial sums parts[c] (each of length len(dst)) into dst
// in chunk order.
func sumChunks(dst []float64, parts [][]float64) {
	clear(dst)
	for _, p := range parts {
		for i, v := range p {
			dst[i] += v
		}
	}
}

// newParts allocates nc partial-sum buffers of length m in one block.
func newParts(nc, m int) [][]float64 {
	buf := make([]float64, nc*m)
	parts := make([][]float64, nc)
	for c := range parts {
		parts[c] = buf[c*m : (c+1)*m : (c+1)*m]
	}
	return parts
}
