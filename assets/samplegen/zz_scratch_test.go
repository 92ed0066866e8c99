package samplegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func scratchScores(t *testing.T, name string, gray bool, D int) ([][]float64, []string) {
	s := set(t, name)
	var rows [][]float64
	var codes []string
	for _, im := range s.Images {
		d := decode(t, im)
		v := d.v
		if gray && d.ch == 3 {
			g := make([]float64, len(v)/3)
			for i := range g {
				g[i] = 0.299*v[3*i] + 0.587*v[3*i+1] + 0.114*v[3*i+2]
			}
			v = g
		}
		rows = append(rows, v)
		codes = append(codes, im.Code)
	}
	N, P := len(rows), len(rows[0])
	sc := 1 / math.Sqrt(float64(N-1))
	mean := make([]float64, P)
	for _, r := range rows {
		for i, v := range r {
			mean[i] += v * sc / float64(N)
		}
	}
	Y := mat.NewDense(N, P, nil)
	for n, r := range rows {
		for i, v := range r {
			Y.Set(n, i, v*sc-mean[i])
		}
	}
	var G mat.SymDense
	G.SymOuterK(1, Y)
	var eig mat.EigenSym
	eig.Factorize(&G, true)
	vals := eig.Values(nil)
	var U mat.Dense
	eig.VectorsTo(&U)
	if D > N-1 {
		D = N - 1
	}
	X := make([][]float64, N)
	for n := range X {
		X[n] = make([]float64, D)
		for d := 0; d < D; d++ {
			j := N - 1 - d
			X[n][d] = U.At(n, j) * math.Sqrt(math.Max(vals[j], 0))
		}
	}
	return X, codes
}

func kfeat(X [][]float64, K int, rng *rand.Rand) ([][]bool, float64) {
	N, D := len(X), len(X[0])
	Z := make([][]bool, N)
	for n := range Z {
		Z[n] = make([]bool, K)
		Z[n][0] = true
	}
	A := make([][]float64, K)
	A[0] = make([]float64, D)
	for _, x := range X {
		for d := range x {
			A[0][d] += x[d] / float64(N)
		}
	}
	resid := func(n, kk int) []float64 {
		r := append([]float64(nil), X[n]...)
		for k := 0; k < kk; k++ {
			if Z[n][k] {
				for d := range r {
					r[d] -= A[k][d]
				}
			}
		}
		return r
	}
	for k := 1; k < K; k++ {
		w := make([]float64, N)
		tot := 0.0
		for n := range X {
			r := resid(n, k)
			for _, v := range r {
				w[n] += v * v
			}
			tot += w[n]
		}
		u := rng.Float64() * tot
		pick := 0
		for n := range w {
			u -= w[n]
			if u <= 0 {
				pick = n
				break
			}
		}
		A[k] = resid(pick, k)
		for n := range X {
			r := resid(n, k)
			a, b := 0.0, 0.0
			for d := range r {
				a += r[d] * r[d]
				e := r[d] - A[k][d]
				b += e * e
			}
			Z[n][k] = b < a
		}
	}
	obj := 0.0
	for iter := 0; iter < 200; iter++ {
		// A-step
		var zz mat.Dense
		Zm := mat.NewDense(N, K, nil)
		for n := range Z {
			for k := range K {
				if Z[n][k] {
					Zm.Set(n, k, 1)
				}
			}
		}
		Xm := mat.NewDense(N, D, nil)
		for n := range X {
			Xm.SetRow(n, X[n])
		}
		zz.Mul(Zm.T(), Zm)
		var rhs mat.Dense
		rhs.Mul(Zm.T(), Xm)
		var Am mat.Dense
		if err := Am.Solve(&zz, &rhs); err != nil {
			return Z, math.Inf(1)
		}
		for k := range K {
			A[k] = mat.Row(nil, k, &Am)
		}
		// Z-step exhaustive
		changed := false
		obj = 0
		for n := range X {
			best, bestE := 0, math.Inf(1)
			for m := 0; m < 1<<K; m++ {
				e := 0.0
				for d := range D {
					v := X[n][d]
					for k := range K {
						if m>>k&1 == 1 {
							v -= A[k][d]
						}
					}
					e += v * v
				}
				if e < bestE {
					best, bestE = m, e
				}
			}
			obj += bestE
			for k := range K {
				b := best>>k&1 == 1
				if Z[n][k] != b {
					changed = true
				}
				Z[n][k] = b
			}
		}
		if !changed {
			break
		}
	}
	return Z, obj
}

func TestScratchRecovery(t *testing.T) {
	for _, cfg := range []struct {
		name string
		gray bool
	}{{"tabletop", false}, {"tabletop", true}, {"faces", true}, {"dice", true}} {
		X, codes := scratchScores(t, cfg.name, cfg.gray, 100)
		rng := rand.New(rand.NewPCG(1, 2))
		line := fmt.Sprintf("%s gray=%v obj by K:", cfg.name, cfg.gray)
		for K := 1; K <= 8; K++ {
			var bestZ [][]bool
			best := math.Inf(1)
			for r := 0; r < 30; r++ {
				Z, o := kfeat(X, K, rng)
				if o < best {
					best, bestZ = o, Z
				}
			}
			line += fmt.Sprintf(" %.2f", best)
			if K == 5 {
				// match
				kt := len(codes[0])
				ok := 0
				for n := range codes {
					good := true
					for j := 0; j < kt; j++ {
						// best learned column for true j
						bestAgree, bestK, comp := -1, 0, false
						for k := 0; k < K; k++ {
							ag := 0
							for m := range codes {
								if (codes[m][j] == '1') == bestZ[m][k] {
									ag++
								}
							}
							if ag > bestAgree {
								bestAgree, bestK, comp = ag, k, false
							}
							if len(codes)-ag > bestAgree {
								bestAgree, bestK, comp = len(codes)-ag, k, true
							}
						}
						if ((codes[n][j] == '1') == bestZ[n][bestK]) == comp {
							good = false
						}
					}
					if good {
						ok++
					}
				}
				line += fmt.Sprintf(" [K=5 recovered %d/%d]", ok, len(codes))
			}
		}
		t.Log(line)
	}
}
