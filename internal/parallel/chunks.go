package parallel

// ChunkRows is the number of rows (pixels, data rows) of one unit of chunked work.
// Chunks, and so the order in which their partial sums are added, depend only on the
// number of rows, which is what keeps results identical whatever the number of workers.
const ChunkRows = 4096

// NumChunks is the number of chunks n rows are split into.
func NumChunks(n int) int { return (n + ChunkRows - 1) / ChunkRows }

// ForChunks calls fn(w, chunk, lo, hi) for every chunk of the row range [0, n) on
// workers goroutines; w ∈ [0, workers) names the calling worker so fn can use per-worker
// scratch. It returns when every chunk is done. With one worker or one chunk it runs on
// the calling goroutine and allocates nothing, so a kernel called in a loop by one worker
// of many (a restart of K-means) stays free of allocations.
func ForChunks(n, workers int, fn func(w, chunk, lo, hi int)) {
	nc := NumChunks(n)
	if workers <= 1 || nc <= 1 {
		for c := range nc {
			fn(0, c, c*ChunkRows, min((c+1)*ChunkRows, n))
		}
		return
	}
	For(workers, nc, func(w, c int) {
		fn(w, c, c*ChunkRows, min((c+1)*ChunkRows, n))
	})
}

// SumChunks adds the per-chunk partial sums parts[c] (each of length len(dst)) into dst
// in chunk order.
func SumChunks(dst []float64, parts [][]float64) {
	clear(dst)
	for _, p := range parts {
		for i, v := range p {
			dst[i] += v
		}
	}
}

// NewParts allocates nc partial-sum buffers of length m in one block.
func NewParts(nc, m int) [][]float64 {
	buf := make([]float64, nc*m)
	parts := make([][]float64, nc)
	for c := range parts {
		parts[c] = buf[c*m : (c+1)*m : (c+1)*m]
	}
	return parts
}
