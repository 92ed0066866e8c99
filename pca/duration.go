package pca

import (
	"math"
	"sync"
	"time"
)

// work is about how many floating-point operations a fit of components of an n × p
// matrix does on the path it takes: the products with the data, which dominate, and the
// decompositions of the small matrices. Only its growth in n, p and d matters: each
// path's speed is measured (Duration), so its constant factors cancel.
func work(n, p, components int) (path, float64) {
	if components <= 0 || n < 2 {
		return pathAuto, 0 // identity mode: a copy, no factorisation
	}
	d := min(components, n-1, p)
	N, P, D := float64(n), float64(p), float64(d)
	pth := choosePath(n, p, d, pathAuto)
	switch pth {
	case pathGram:
		// G = Yc·Ycᵀ (symmetric), the components Ycᵀ·W, and the n × n eigen-decomposition.
		return pth, N*N*P + 2*N*P*D + 10*N*N*N
	case pathSVD:
		return pth, 4*N*P*P + 22*P*P*P
	}
	b, q := krylovShape(d, n, p)
	B, M := float64(b), float64(b*(q+1))
	// 2q+1 products with a block of b columns, one with the whole basis (Ycᵀ·Q), its
	// orthogonalisation and the Gram matrix of Bᵀ.
	return pth, 2*N*P*B*float64(2*q+1) + 2*N*P*M + 4*N*M*M + 2*P*M*M
}

// rates holds each path's speed in work per second, learned from the fits of this
// process: the latest fit of a path sets it, and a path not yet fitted is measured on
// a small synthetic matrix the first time it is asked for.
var rates struct {
	sync.Mutex
	perSecond map[path]float64
}

// learnRate records how fast a fit on pth ran. Fits too short to time (under 20 ms, where
// the decompositions' fixed costs and the clock's grain dominate) teach nothing.
func learnRate(pth path, w float64, took time.Duration) {
	if took < 20*time.Millisecond || w <= 0 {
		return
	}
	rates.Lock()
	defer rates.Unlock()
	if rates.perSecond == nil {
		rates.perSecond = map[path]float64{}
	}
	rates.perSecond[pth] = w / took.Seconds()
}

// calibrationShapes are the synthetic fits that measure a path no real fit has timed
// yet: each takes its path, in tens of milliseconds.
var calibrationShapes = map[path][3]int{
	pathGram:       {100, 4000, 50},
	pathSVD:        {1000, 100, 30},
	pathRandomized: {300, 2000, 20},
}

// Duration is about how long Fit32 will take on an n × p matrix for components, on
// this machine with workers (0 = one per CPU), from the speed of the latest fit that
// took the same path. A path not yet fitted in this process is first timed on a small
// synthetic matrix (tens of milliseconds), so call it off the UI goroutine. It lets a
// progress report give the time left of a whole load, the PCA included, while the
// images are still being read.
func Duration(n, p, components, workers int) time.Duration {
	pth, w := work(n, p, components)
	if w == 0 {
		return 0
	}
	rates.Lock()
	rate, ok := rates.perSecond[pth]
	rates.Unlock()
	if !ok {
		s := calibrationShapes[pth]
		_, cw := work(s[0], s[1], s[2])
		if w < 4*cw {
			return 0 // about as quick as timing the path: not worth a wait
		}
		y := make([]float32, s[0]*s[1])
		for i := range y {
			// A smooth pattern with decaying structure, like images; not random noise, on
			// which the fit's accuracy checks would do extra work.
			y[i] = float32(math.Sin(float64(i%s[1])*0.001*float64(1+i/s[1]%7)) + float64(i/s[1]%13)*0.01)
		}
		start := time.Now()
		Fit32(y, s[0], s[1], Options{Components: s[2], Seed: 1, Workers: workers})
		took := time.Since(start)
		rates.Lock()
		rate, ok = rates.perSecond[pth]
		if !ok || rate <= 0 {
			// The calibration ran under learnRate's 20 ms (a fast machine): its own time
			// still gives a rate, kept until a real fit teaches a better one, so that the
			// next estimate on this path does not time it again.
			if took <= 0 {
				rates.Unlock()
				return 0
			}
			rate = cw / took.Seconds()
			if rates.perSecond == nil {
				rates.perSecond = map[path]float64{}
			}
			rates.perSecond[pth] = rate
		}
		rates.Unlock()
	}
	return time.Duration(w / rate * float64(time.Second))
}
