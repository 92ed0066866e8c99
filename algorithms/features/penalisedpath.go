package features

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// penalisedPathSteps bounds the λ² grid of a path run: 48 halvings of √2 span 10^7.
const penalisedPathSteps = 48

// penalisedPath is BP-means (or collapsed BP-means) with no λ² given. Those learners
// choose K themselves for a λ², so their λ² path is read off runs at a grid of λ²: from
// the total sum of squares about the mean (where no feature pays) down by factors of √2,
// each run with the options' restarts, keeping for every K the lowest ‖X − ZA‖² any run
// ended on. The runs stop once λ² has fallen below PathFlat times the path's steepest
// fall per feature (the curve has flattened, as for stepwisePath) or K has passed
// opt.MaxK (default 30) or fitted every row exactly. The path of those points (LambdaPath) gives the K, as for
// stepwise: the most stable (MostStable), its fit the run's that reached it, at λ² in
// the middle of its interval; PathFits keeps every path K's fit.
//
// A run costs what one BP-means run costs; the grid takes a dozen or two of them on real
// photos.
func penalisedPath(ctx context.Context, algo string, X *mat.Dense, opt learn.Options,
	newRunner func(x []float64, n, d int) bpRunner) (*learn.Result, error) {
	start := time.Now()
	full, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	maxK := opt.MaxK
	if maxK <= 0 {
		maxK = 30
	}
	n, d := X.Dims()
	var top float64 // Σ‖x_n − x̄‖²: above it no feature lowers the objective by its price
	for j := 0; j < d; j++ {
		col := mat.Col(nil, j, X)
		var mean float64
		for _, v := range col {
			mean += v
		}
		mean /= float64(n)
		for _, v := range col {
			top += (v - mean) * (v - mean)
		}
	}
	if math.IsInf(top, 0) || math.IsNaN(top) {
		return nil, errors.New("the rows' sum of squares is not finite")
	}
	if top == 0 {
		top = 1 // all rows alike: one feature fits them at any λ², and the grid stops there
	}
	kp := newKFProblem(X)
	fits := map[int]*kfFit{}        // the best fit of each K, in K-features' form
	runs := map[int]*learn.Result{} // the run that found it
	var curve []learn.CurvePoint
	for step, l := 0, top; step < penalisedPathSteps; step, l = step+1, l/math.Sqrt2 {
		o := opt
		o.Lambda2 = l
		res, err := runPenalised(ctx, algo, X, o, newRunner)
		if err != nil {
			return nil, fmt.Errorf("at λ² = %.4g: %w", l, err)
		}
		if res.K > 0 && res.K <= maxFeatures && (fits[res.K] == nil || res.Objective < fits[res.K].obj) {
			fits[res.K] = &kfFit{k: res.K, z: codesOf(res.Z), obj: res.Objective}
			runs[res.K] = res
		}
		curve = pathCurve(fits)
		path := LambdaPath(curve)
		steepest := 0.0
		if len(path) > 1 {
			steepest = path[1].Lambda2High // the hull's slopes fall along it
		}
		if res.K >= maxK || res.Objective <= 0 || (steepest > 0 && l < PathFlat*steepest) {
			break
		}
	}
	if len(curve) == 0 {
		return nil, fmt.Errorf("%s found no feature at any λ² from %.4g down", algo, top)
	}
	// The grid's runs fit each K once or not at all, and a BP-means run stops where no
	// single flip or new feature pays, so a K can end far above K-features' fit and move
	// the path's choice. The
	// backward pass of the stepwise path (stepwiseRun.shrink) drops each feature of
	// every K's fit in turn and descends at K − 1, which also fills the K the grid
	// stepped over. At a fixed K a lower ‖X − ZA‖² is a lower BP-means objective, so
	// every fit is still one BP-means could end on.
	if err := (&stepwiseRun{p: kp, cfg: full, opt: opt}).shrink(ctx, fits); err != nil {
		return nil, err
	}
	results := map[int]*learn.Result{}
	for k, f := range fits {
		r := runs[k]
		if r == nil || f.obj < r.Objective {
			// The backward pass found it: its own Result, without a run's restarts.
			if r, err = kp.result(f); err != nil {
				return nil, err
			}
		}
		results[k] = r
	}
	curve = curve[:0]
	for k, r := range results {
		curve = append(curve, learn.CurvePoint{K: k, Objective: r.Objective})
	}
	slices.SortFunc(curve, func(a, b learn.CurvePoint) int { return a.K - b.K })
	path := LambdaPath(curve)
	i, lambda2, ok := MostStable(path)
	if !ok {
		i = len(path) - 1
		lambda2 = path[i].Lambda2High / 2
		if math.IsInf(lambda2, 1) {
			lambda2 = 2 * path[i].Lambda2Low
		}
	}
	res := *results[path[i].K]
	for _, v := range path {
		f := results[v.K]
		res.PathFits = append(res.PathFits, learn.PathFit{K: f.K, Z: f.Z, A: f.A, Objective: f.Objective, RestartObjectives: f.RestartObjectives})
	}
	res.Lambda2 = lambda2
	res.BPObjective = res.Objective + lambda2*float64(res.K)
	for j := range curve {
		curve[j].BPObjective = curve[j].Objective + lambda2*float64(curve[j].K)
	}
	res.Curve = curve
	res.Seconds = time.Since(start).Seconds()
	return &res, nil
}

// pathCurve is the curve of the best fit of each K, in increasing K.
func pathCurve(fits map[int]*kfFit) []learn.CurvePoint {
	curve := make([]learn.CurvePoint, 0, len(fits))
	for k, f := range fits {
		curve = append(curve, learn.CurvePoint{K: k, Objective: f.obj})
	}
	slices.SortFunc(curve, func(a, b learn.CurvePoint) int { return a.K - b.K })
	return curve
}

// codesOf turns a binary Z (at most 64 columns) into row codes.
func codesOf(Z *mat.Dense) []uint64 {
	n, _ := Z.Dims()
	z := make([]uint64, n)
	for i := range z {
		for j, v := range Z.RawRowView(i) {
			if v != 0 {
				z[i] |= 1 << j
			}
		}
	}
	return z
}
