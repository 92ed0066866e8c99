package encoding

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestEncodingTheTrainingImagesGivesTheirCodes: the learners end where the Z-step
// changes no code, so encoding the images an analysis was learned on gives back its
// codes, for features (the tabletop sample, base kept on) and for a clustering.
func TestEncodingTheTrainingImagesGivesTheirCodes(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		algo string
		opt  learn.Options
	}{
		{"stepwise", learn.Options{Restarts: 20, Seed: 1}},
		{"kfeatures", learn.Options{K: 4, Restarts: 20, Seed: 1}},
		{"kmeans", learn.Options{K: 4, Restarts: 5, Seed: 1}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			a, err := result.Run(ctx, p, algorithms.MustLookup(tc.algo), tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := FromAnalysis(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Check(); err != nil {
				t.Fatal(err)
			}
			got, err := e.Encode(context.Background(), a.Data, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := a.Codes()
			for i, c := range got {
				if c.Code != want[i] {
					t.Errorf("%s: code %s, the analysis's %s", c.Name, c.Code, want[i])
				}
			}
			// A picture of nothing the analysis saw — the first image upside down — is
			// not explained.
			flipped := *a.Data
			flipped.Names, flipped.Pixels = flipped.Names[:1], slices.Clone(flipped.Row(0))
			slices.Reverse(flipped.Pixels)
			if c, err := e.Encode(context.Background(), &flipped, nil); err != nil || !c[0].Unexplained {
				t.Errorf("the first image upside down: %+v, %v; want it unexplained (limit %.3g)", c, err, e.Limit)
			}
		})
	}
}

// TestEncodingNewPhotosAgreesWithLearningThemAll is the check on the real
// tabletop: features learned on its first 50 photos (natural order) code the other 50
// as the analysis of all 100 does, object by object, and a BSDS photo and a face put
// among them are flagged as not explained.
func TestEncodingNewPhotosAgreesWithLearningThemAll(t *testing.T) {
	accuracy.Check(t)
	table := accuracy.SharedData(t, "tabletop")
	data := filepath.Dir(table)
	ctx := context.Background()
	names, err := filepath.Glob(filepath.Join(table, "Picture_*.jpg"))
	if err != nil || len(names) != 100 {
		t.Fatalf("%d tabletop photos (%v), want 100", len(names), err)
	}
	slices.SortFunc(names, imgproc.NaturalOrder)
	first, rest := t.TempDir(), t.TempDir()
	for i, n := range names {
		dir := first
		if i >= 50 {
			dir = rest
		}
		abs, _ := filepath.Abs(n)
		if err := os.Symlink(abs, filepath.Join(dir, filepath.Base(n))); err != nil {
			t.Fatal(err)
		}
	}
	for _, stranger := range []struct{ from, to string }{
		{filepath.Join(data, "bsds500-train", "images", "100075.jpg"), "zz_photo.jpg"},
		{filepath.Join(data, "orl_faces", "s1", "1.pgm"), "zz_face.pgm"},
	} {
		abs, _ := filepath.Abs(stranger.from)
		if err := os.Symlink(abs, filepath.Join(rest, stranger.to)); err != nil {
			t.Fatal(err)
		}
	}
	analyze := func(dir string) *result.Analysis {
		a, err := result.Analyze(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA,
			Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	learned, all := analyze(first), analyze(table)
	e, err := FromAnalysis(learned)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := imgproc.Load(ctx, rest, imgproc.Options{Width: e.Width, Height: e.Height, Color: imgproc.ColorRGB})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Encode(context.Background(), ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]string{}
	for i, c := range all.Codes() {
		full[all.Data.Names[i]] = c
	}
	// The two analyses number their features alike here; match them by agreement all
	// the same, so that only the codes count.
	k := e.K
	if all.Result.K != k {
		t.Fatalf("K = %d on the first 50 photos, %d on all 100", k, all.Result.K)
	}
	match := make([]int, k)
	for j := range match {
		best := -1
		for f := 0; f < k; f++ {
			agree := 0
			for _, c := range got {
				if w, ok := full[c.Name]; ok && w[f] == c.Code[j] {
					agree++
				}
			}
			if agree > best {
				best, match[j] = agree, f
			}
		}
	}
	same, photos := 0, 0
	for _, c := range got {
		w, ok := full[c.Name]
		if !ok {
			if !c.Unexplained {
				t.Errorf("%s (not a tabletop photo) explained: residual %.3g, limit %.3g", c.Name, c.Residual, e.Limit)
			}
			continue
		}
		photos++
		agree := true
		for j := range match {
			agree = agree && c.Code[j] == w[match[j]]
		}
		if agree {
			same++
		}
	}
	t.Logf("%d of %d photos coded as the whole analysis codes them (features matched %v)", same, photos, match)
	if photos != 50 || float64(same) < 0.98*float64(photos) {
		t.Errorf("%d of %d photos coded as the whole analysis codes them, want ≥ 98 %%", same, photos)
	}
}

// TestEncodeRefusesOtherPictures: images of another size or colour than the analysis's
// are one clear error, not a panic.
func TestEncodeRefusesOtherPictures(t *testing.T) {
	e := &Encoder{Width: 4, Height: 3, Channels: 1, K: 1, Base: -1, Mean: make([]float32, 12), Features: make([]float32, 12)}
	ds := &imgproc.Dataset{Width: 3, Height: 4, Channels: 1, Names: []string{"a"}, Pixels: make([]float32, 12)}
	if _, err := e.Encode(context.Background(), ds, nil); err == nil || !strings.Contains(err.Error(), "3×4") {
		t.Errorf("got %v, want a line naming the sizes", err)
	}
}

// TestIBPProbabilitiesAgreeWithCodes: for an IBP analysis of the built-in tetris sample
// (raw pixels, noise sd 0.1), each image's probability of owning a feature given the
// posterior-mean features is ≥ ½ where its code has the feature on at least 95 % of the
// bits (all 500 when written). The dice (PCA) are held to 90 %: their IBP keeps 9
// features for fewer faces, and some codes rebuild the same picture (001110101 and
// 001111010 alike, residual 3.3e-7), where the probabilities split by the prior and the
// code keeps the first met (868 of 900 bits agree). The base is owned with probability
// 1; other learners give no probabilities.
func TestIBPProbabilitiesAgreeWithCodes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		sample string
		pca    int
		agree  float64
	}{{"tetris", 0, 0.95}, {"dice", pipeline.DefaultPCA, 0.9}} {
		t.Run(tc.sample, func(t *testing.T) {
			a, err := result.Analyze(ctx, pipeline.Request{Source: pipeline.Source{Sample: tc.sample}, PCA: tc.pca,
				Algorithm: algorithms.MustLookup("ibp"), Options: learn.Options{Chains: 1, Sweeps: 200, Seed: 1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := FromAnalysis(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Check(); err != nil || e.Noise <= 0 {
				t.Fatalf("check %v, noise %v", err, e.Noise)
			}
			got, err := e.Encode(ctx, a.Data, nil)
			if err != nil {
				t.Fatal(err)
			}
			agree, bits, same := 0, 0, 0
			for i, c := range got {
				if len(c.Probability) != e.K {
					t.Fatalf("%s: %d probabilities for K = %d", c.Name, len(c.Probability), e.K)
				}
				for k, p := range c.Probability {
					if !(p >= 0 && p <= 1) || (k == e.Base && p != 1) {
						t.Fatalf("%s: probability %v of feature %d (base %d)", c.Name, p, k+1, e.Base)
					}
					bits++
					if (p >= 0.5) == (c.Code[k] == '1') {
						agree++
					}
				}
				if c.Code == a.Codes()[i] {
					same++
				}
			}
			t.Logf("K = %d, σ_X %.4g: probabilities agree with the codes on %d of %d bits; %d of %d codes are the sampler's",
				e.K, a.Result.SigmaX, agree, bits, same, len(got))
			if float64(agree) < tc.agree*float64(bits) {
				t.Errorf("probabilities agree with the codes on %d of %d bits, want ≥ %.0f %%", agree, bits, 100*tc.agree)
			}
		})
	}
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "dice"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := result.Run(ctx, p, algorithms.MustLookup("kfeatures"), learn.Options{K: 3, Restarts: 2, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := FromAnalysis(a)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Encode(ctx, a.Data, nil); err != nil || got[0].Probability != nil || e.Prior != nil {
		t.Errorf("K-features: %v, probabilities %v, prior %v", err, got[0].Probability, e.Prior)
	}
}

// TestMarginalsSumTheCodes: the Gray-code walk gives the marginals a direct sum over the
// codes gives, and the mean field, on features far apart against the noise, decides
// each bit alike.
func TestMarginalsSumTheCodes(t *testing.T) {
	F := mat.NewDense(3, 4, []float64{1, 0, 0.2, 0, 0, 1, 0.1, 0, 0.3, 0, 1, 0.5})
	x := []float64{1.1, -0.1, 1.2, 0.4}
	logit := []float64{math.Log(0.3 / 0.7), 0, math.Log(0.8 / 0.2)}
	const inv2s2 = 1 / (2 * 0.25 * 0.25)
	var G mat.Dense
	G.Mul(F, F.T())
	b := make([]float64, 3)
	for j := range b {
		b[j] = floats.Dot(F.RawRowView(j), x)
	}
	got := make([]float64, 3)
	exactMarginals(&G, b, logit, inv2s2, got)
	want, total := make([]float64, 3), 0.0
	for code := 0; code < 8; code++ {
		r := slices.Clone(x)
		lw := 0.0
		for j := 0; j < 3; j++ {
			if code>>j&1 == 1 {
				floats.Sub(r, F.RawRowView(j))
				lw += logit[j]
			}
		}
		w := math.Exp(lw - (floats.Dot(r, r)-floats.Dot(x, x))*inv2s2)
		total += w
		for j := 0; j < 3; j++ {
			if code>>j&1 == 1 {
				want[j] += w
			}
		}
	}
	for j := range want {
		want[j] /= total
		if math.Abs(got[j]-want[j]) > 1e-12 {
			t.Errorf("p(z_%d = 1) = %.15g, the direct sum %.15g", j+1, got[j], want[j])
		}
	}
	q := []float64{0, 0, 0}
	meanField(&G, b, logit, inv2s2, q)
	for j := range q {
		if (q[j] >= 0.5) != (want[j] >= 0.5) {
			t.Errorf("feature %d: mean field %.3g, exact %.3g", j+1, q[j], want[j])
		}
	}
}

// TestEncodingDividesExposureAlike: an analysis that divided its pictures' exposure out
// keeps the picture it measured them against, so a new picture taken 12 % brighter or
// darker than a training one is coded as that one was, and explained as well.
func TestEncodingDividesExposureAlike(t *testing.T) {
	accuracy.Check(t)
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	spec, err := scenes.Random(data, 101)
	if err != nil {
		t.Fatal(err)
	}
	spec.Exposure, spec.N = 0.2, 60
	dir := t.TempDir()
	if _, err := scenes.Write(dir, spec); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := result.Analyze(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA,
		Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Restarts: 20, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Exposure.Divided {
		t.Fatal("the analysis kept the exposure: nothing to check")
	}
	e, err := FromAnalysis(a)
	if err != nil || e.Exposure == nil {
		t.Fatalf("encoder %v, exposure reference %v", err, e != nil && e.Exposure != nil)
	}
	ds := a.Data
	p := ds.Values()
	fresh := &imgproc.Dataset{Width: ds.Width, Height: ds.Height, Channels: ds.Channels}
	var want []string
	for i := range 6 {
		// The picture as taken (the data hold it divided), then taken brighter or darker.
		light := a.Exposure.Gains()[i] * []float64{1.12, 0.88}[i%2]
		for _, v := range ds.Row(i) {
			fresh.Pixels = append(fresh.Pixels, float32(math.Min(1, float64(v)*light)))
		}
		fresh.Names = append(fresh.Names, ds.Names[i])
		want = append(want, a.Codes()[i])
	}
	if len(fresh.Pixels) != 6*p {
		t.Fatal("pictures of the wrong size")
	}
	codes, err := e.Encode(ctx, fresh, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range codes {
		if c.Code != want[i] || c.Unexplained {
			t.Errorf("%s taken %+.0f %%: code %s (residual %.3g, limit %.3g), want its own %s, explained", c.Name, []float64{12, -12}[i%2], c.Code, c.Residual, e.Limit, want[i])
		}
	}
}
