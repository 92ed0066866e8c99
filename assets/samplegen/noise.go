package samplegen

import "math"

// valueNoise is smooth lattice noise in [0, 1]: random values at integer points,
// interpolated with a smoothstep. The lattice values come from a hash of the point and
// the seed, so the texture is the same however it is sampled.
func valueNoise(seed uint64, x, y float64) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := int64(fx), int64(fy)
	tx, ty := smooth(x-fx), smooth(y-fy)
	v00 := lattice(seed, ix, iy)
	v10 := lattice(seed, ix+1, iy)
	v01 := lattice(seed, ix, iy+1)
	v11 := lattice(seed, ix+1, iy+1)
	top := v00 + tx*(v10-v00)
	bottom := v01 + tx*(v11-v01)
	return top + ty*(bottom-top)
}

// fbm sums octaves of value noise, each at twice the frequency and half the amplitude of
// the last, normalised to [0, 1].
func fbm(seed uint64, x, y float64, octaves int) float64 {
	var sum, amp, norm float64 = 0, 1, 0
	for o := range octaves {
		sum += amp * valueNoise(seed+uint64(o), x, y)
		norm += amp
		amp /= 2
		x, y = 2*x, 2*y
	}
	return sum / norm
}

func smooth(t float64) float64 { return t * t * (3 - 2*t) }

// lattice hashes a lattice point to [0, 1) with the splitmix64 finaliser.
func lattice(seed uint64, ix, iy int64) float64 {
	z := seed ^ uint64(ix)*0x9e3779b97f4a7c15 ^ uint64(iy)*0xc2b2ae3d27d4eb4f
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}
