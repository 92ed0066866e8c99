package segment

import (
	"context"
	"errors"
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/partition"
	"featurelab/internal/accuracy"
)

// assertMonotone fails if the bound ever decreased by more than a relative 1e-9.
func assertMonotone(t *testing.T, bound []float64) {
	t.Helper()
	if len(bound) < 2 {
		t.Fatalf("only %d iterations", len(bound))
	}
	for i := 1; i < len(bound); i++ {
		if bound[i] < bound[i-1]-1e-9*math.Abs(bound[i-1]) {
			t.Fatalf("bound fell at iteration %d: %v → %v", i+1, bound[i-1], bound[i])
		}
	}
}

func TestBoundNeverDecreases(t *testing.T) {
	img, _ := blocksImage(48, 36, 2)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"default", Options{Seed: 1}},
		{"texture", Options{Seed: 2, Texture: true}},
		{"pixel locations", Options{Seed: 3, Cell: 1, MaxIter: 15}},
		{"discount", Options{Seed: 4, Discount: 0.3, Truncation: 8}},
		{"learned widths", Options{Seed: 5, LearnWidths: true, Tol: 1e-9, MaxIter: 30}},
		{"plain likelihood", Options{Seed: 6, Power: 1, Texture: true}},
		{"Euclidean", Options{Seed: 7, Distance: DistanceEuclidean}},
		{"Euclidean, learned locations and widths", Options{Seed: 8, Distance: DistanceEuclidean,
			LearnLocations: true, LearnWidths: true, Tol: 1e-9, MaxIter: 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Segment(context.Background(), img, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d iterations, %d segments", res.Iterations, res.Segments)
			assertMonotone(t, res.Bound)
		})
	}
}

// newTestModel returns an initialised model of img.
func newTestModel(t *testing.T, img image.Image, opt Options) *kpyp {
	t.Helper()
	opt, err := opt.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPixels(img, opt.Texture, opt.Workers)
	if err != nil {
		t.Fatal(err)
	}
	m := newKPYP(p, opt)
	m.learnLoc, m.learnWidth = opt.LearnLocations, opt.LearnWidths
	if err := m.initialise(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestScreenBoundBracketsPasses(t *testing.T) {
	// The merge moves' bound of the current responsibilities, with q(v) and q(θ) at
	// their optima for them, lies between the bound of the last pass and that of the
	// next pass (which starts from exactly those optima when q(α) is left alone).
	img, _ := blocksImage(48, 36, 3)
	m := newTestModel(t, img, Options{Seed: 1})
	b, err := m.iterate(true)
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 12; it++ {
		s := m.screenBound(m.newScreen())
		m.skipAlpha = true
		next, err := m.iterate(false)
		if err != nil {
			t.Fatal(err)
		}
		tol := 1e-9 * math.Abs(s)
		if s < b-tol || next < s-tol {
			t.Fatalf("iteration %d: pass %v, screen %v, next pass %v", it, b, s, next)
		}
		b = next
	}
}

func TestLocationStepRaisesBound(t *testing.T) {
	// The L-BFGS step on x̂_c and ψ_c must not lower the bound with q(v) at its optimum.
	img, _ := bandImage(48, 32, 0.2, 4)
	m := newTestModel(t, img, Options{Seed: 2, Width: 0.3, LearnLocations: true, LearnWidths: true, Distance: DistanceEuclidean})
	for it := 0; it < 4; it++ {
		if _, err := m.iterate(it == 0); err != nil {
			t.Fatal(err)
		}
	}
	before := m.screenBound(m.newScreen())
	locs := slices.Concat(m.locY, m.locX, m.width)
	m.refineLocations()
	after := m.screenBound(m.newScreen())
	if after < before-1e-9*math.Abs(before) {
		t.Fatalf("location step lowered the bound: %v → %v", before, after)
	}
	if slices.Equal(locs, slices.Concat(m.locY, m.locX, m.width)) {
		t.Error("location step moved nothing")
	}
}

func TestStickObjectiveGradient(t *testing.T) {
	img, _ := bandImage(40, 30, 0.25, 5)
	m := newTestModel(t, img, Options{Seed: 3, Width: 0.4, Discount: 0.2})
	for it := 0; it < 3; it++ {
		if _, err := m.iterate(it == 0); err != nil {
			t.Fatal(err)
		}
	}
	counts := m.cellCounts()
	am, elog := m.alphaMoments()
	ab := math.Exp(elog)
	for _, c := range []int{0, 3, m.C - 2} {
		x := []float64{m.locY[c] + 0.05, m.locX[c] - 0.03, math.Log(m.width[c])}
		f := func(v []float64) float64 {
			return m.stickObjective(c, v[0], v[1], math.Exp(v[2]), counts, am, ab, nil)
		}
		g := make([]float64, 3)
		m.stickObjective(c, x[0], x[1], math.Exp(x[2]), counts, am, ab, g)
		for i := range x {
			const h = 1e-6
			xp, xm := slices.Clone(x), slices.Clone(x)
			xp[i] += h
			xm[i] -= h
			num := (f(xp) - f(xm)) / (2 * h)
			if math.Abs(num-g[i]) > 1e-5*(1+math.Abs(num)) {
				t.Errorf("cluster %d, variable %d: gradient %v, numerical %v", c, i, g[i], num)
			}
		}
	}
}

func TestSegmentSynthetic(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		name  string
		img   func() (*image.RGBA, []int32)
		opt   Options
		check func(t *testing.T, labels []int32)
	}{
		{
			// Four colours, one of them a background that spans the image: with the
			// default width one cluster's kernel covers it all.
			name: "regions",
			img:  func() (*image.RGBA, []int32) { return blocksImage(64, 48, 1) },
		},
		{
			// Two red regions at the left and right fifths of the image, a blue band
			// between them: with the geodesic distance the band's two edges put each red
			// region far from a stick located in the other.
			name: "same colour far apart",
			img:  func() (*image.RGBA, []int32) { return bandImage(96, 64, 0.2, 1) },
			check: func(t *testing.T, labels []int32) {
				left, right := labels[32*96+5], labels[32*96+90]
				if left == right {
					t.Errorf("left and right regions share label %d", left)
				}
			},
		},
		{
			// The same with the paper's Euclidean distance and plain likelihood. Their
			// centres are 0.8 apart: with ψ = 0.35 a stick's kernel is
			// e^{−0.64/0.1225} ≈ 0.005 across the band but ≥ 0.6 within a region, and even
			// a stick centred on the band reaches the red regions with at most e^{−0.09/0.1225}
			// ≈ 0.48, so the KPYP gives each red region its own cluster — three segments, not
			// two. (At ψ = 0.5 one stick between them still reaches both with ≥ 0.37, and for
			// some seeds the bound prefers one red cluster: the kernels are soft.)
			name: "same colour far apart, Euclidean",
			img:  func() (*image.RGBA, []int32) { return bandImage(96, 64, 0.2, 1) },
			opt:  Options{Cell: 4, Width: 0.35, Distance: DistanceEuclidean, Power: 1},
			check: func(t *testing.T, labels []int32) {
				left, right := labels[32*96+5], labels[32*96+90]
				if left == right {
					t.Errorf("left and right regions share label %d", left)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, truth := tc.img()
			// Several seeds: a pass must not hang on one lucky initialisation.
			for seed := uint64(1); seed <= 5; seed++ {
				opt := tc.opt
				opt.Seed = seed
				res, err := Segment(context.Background(), img, opt)
				if err != nil {
					t.Fatal(err)
				}
				ri := partition.RandIndex(res.Labels, truth)
				t.Logf("seed %d: Rand index %.4f, %d segments, %d iterations", seed, ri, res.Segments, res.Iterations)
				if ri < 0.95 {
					t.Errorf("seed %d: Rand index %.4f < 0.95 (%d segments, %d iterations)", seed, ri, res.Segments, res.Iterations)
				}
				assertMonotone(t, res.Bound)
				if tc.check != nil {
					tc.check(t, res.Labels)
				}
			}
		})
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	small, _ := blocksImage(64, 48, 7)
	// 100×100 is fitted at stride 2 and labelled by superpixels (labelAll).
	large, _ := blocksImage(100, 100, 7)
	if s := fitStride(100*100, DefaultStride); s != 2 {
		t.Fatalf("100×100 is fitted at stride %d, want 2", s)
	}
	for _, tc := range []struct {
		img *image.RGBA
		opt Options
	}{
		{small, Options{Seed: 9}},
		{small, Options{Seed: 9, LearnLocations: true, MaxIter: 12}},
		{small, Options{Seed: 9, Method: MethodKMeans}},
		{large, Options{Seed: 9, Texture: true, Discount: DefaultDiscount}},
	} {
		img, opt := tc.img, tc.opt
		var ref *Result
		for _, w := range []int{1, 4} {
			opt.Workers = w
			res, err := Segment(context.Background(), img, opt)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = res
				continue
			}
			if !slices.Equal(ref.Labels, res.Labels) || !slices.Equal(ref.Bound, res.Bound) {
				t.Errorf("%s: labels or bound differ between 1 and %d workers", opt.Method, w)
			}
		}
	}
}

func TestSegmentBadInput(t *testing.T) {
	img, _ := blocksImage(8, 6, 1)
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Method: "slic"}, "Method"},
		{Options{Truncation: -1}, "Truncation"},
		{Options{Truncation: 1 << 20}, "Truncation"},
		{Options{MaxIter: -5}, "MaxIter"},
		{Options{Tol: math.NaN()}, "Tol"},
		{Options{Width: -0.1}, "Width"},
		{Options{Width: math.Inf(1)}, "Width"},
		{Options{Discount: 1}, "Discount"},
		{Options{Cell: -2}, "Cell"},
		{Options{K: -1}, "K"},
		{Options{Lambda2: -1}, "Lambda2"},
		{Options{Workers: -1}, "Workers"},
	} {
		if _, err := Segment(context.Background(), img, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %s", tc.opt, err, tc.want)
		}
	}
	if _, err := Segment(context.Background(), nil, Options{}); err == nil {
		t.Error("nil image: no error")
	}
	if _, err := Segment(context.Background(), image.NewRGBA(image.Rect(0, 0, 0, 5)), Options{}); err == nil {
		t.Error("empty image: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Segment(ctx, img, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

// TestTailStaysAtPrior: the last component, which stands for every cluster beyond the
// truncation, keeps q(θ_C) = p(θ) however much responsibility it holds, and so adds
// nothing to the bound's KL terms; the bound still never falls.
func TestTailStaysAtPrior(t *testing.T) {
	img, _ := blocksImage(48, 36, 3)
	m := newTestModel(t, img, Options{Seed: 1})
	var trace []float64
	for it := 0; it < 8; it++ {
		b, err := m.iterate(it == 0)
		if err != nil {
			t.Fatal(err)
		}
		trace = append(trace, b)
	}
	assertMonotone(t, trace)
	C := m.C
	if held := m.tot[accStats+C-1]; !(held > 0) {
		t.Fatalf("the tail holds no responsibility (%v): the test cannot tell", held)
	}
	q, p := m.clusters[C-1], m.prior
	if q.beta != p.beta || q.nu != p.nu || !slices.Equal(q.m, p.m) || !slices.Equal(q.winv, p.winv) {
		t.Errorf("tail q(θ) = (β %v, ν %v, m %v), prior (β %v, ν %v, m %v)", q.beta, q.nu, q.m, p.beta, p.nu, p.m)
	}
	if kl := q.kl(m.prior, m.priorLogDetW); math.Abs(kl) > 1e-9 {
		t.Errorf("tail KL(q‖p) = %v", kl)
	}
}

func TestSegmentTinyImages(t *testing.T) {
	// Fewer pixels than clusters, one row, one pixel: no panic, no NaN.
	for _, size := range [][2]int{{1, 1}, {5, 1}, {3, 4}} {
		img, _ := blocksImage(size[0], size[1], 1)
		for _, method := range []string{MethodKPYP, MethodKMeans, MethodDPMeans} {
			res, err := Segment(context.Background(), img, Options{Method: method})
			if err != nil {
				t.Fatalf("%v %s: %v", size, method, err)
			}
			if res.Segments < 1 || len(res.Labels) != size[0]*size[1] {
				t.Errorf("%v %s: %d segments, %d labels", size, method, res.Segments, len(res.Labels))
			}
			for _, b := range res.Bound {
				if math.IsNaN(b) || math.IsInf(b, 0) {
					t.Fatalf("%v %s: bound %v", size, method, b)
				}
			}
		}
	}
}

// screenBound is the bound of the state with the current responsibilities and q(v),
// q(θ) at their optima for them; it needs the entropy of q(z) from the last pass.
func (m *kpyp) screenBound(sc *screen) float64 {
	b := m.tot[accEntropy] - gammaKL(m.eta1, m.eta2, alphaShape0, alphaRate0) + atomPrior(m.atom)
	for _, v := range sc.sticks {
		b += v
	}
	for _, v := range sc.theta {
		b += v
	}
	return b
}

// TestColourDifferenceDecidesNotContrast: two grey halves 3 ΔE apart (under sensor
// noise, about the least difference a viewer notices) are one segment and halves 10 or
// 20 ΔE apart are two, whether or not a saturated red band shares the picture. With
// features scaled to each photo's own spread the faint greys alone were stretched into
// two segments, and the red band's contrast shrank real differences.
func TestColourDifferenceDecidesNotContrast(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		grey float64 // the right half's sRGB grey; the left's is 0.45
		same bool    // whether the halves should be one segment
	}{
		{0.48, true},  // 3 ΔE
		{0.55, false}, // 10 ΔE
		{0.65, false}, // 20 ΔE
	} {
		for _, red := range []bool{false, true} {
			colours := [][3]float64{{0.45, 0.45, 0.45}, {tc.grey, tc.grey, tc.grey}, {0.85, 0.1, 0.1}}
			img, _ := synthImage(96, 64, colours, func(x, y int) int {
				switch {
				case red && y < 16:
					return 2
				case x < 48:
					return 0
				}
				return 1
			}, 0.01, 1)
			for _, opt := range []Options{{}, {Texture: true, Discount: DefaultDiscount}} {
				res, err := Segment(context.Background(), img, opt)
				if err != nil {
					t.Fatal(err)
				}
				left, right := res.Labels[40*96+10], res.Labels[40*96+85]
				if (left == right) != tc.same {
					t.Errorf("grey %.2f against 0.45, red band %v, texture %v: halves labelled %d and %d (%d segments)",
						tc.grey, red, opt.Texture, left, right, res.Segments)
				}
			}
		}
	}
}
