package segment

import (
	"context"
	"strings"
	"testing"

	"featurelab/algorithms/partition"
)

func TestBaselinesOnRegions(t *testing.T) {
	img, truth := blocksImage(64, 48, 3)
	for _, tc := range []struct {
		opt  Options
		want float64
	}{
		{Options{Method: MethodKMeans, K: 4, Seed: 1}, 0.95},
		// λ² from farthest-first for K = 4: about four clusters.
		{Options{Method: MethodDPMeans, K: 4}, 0.95},
	} {
		res, err := Segment(context.Background(), img, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if ri := partition.RandIndex(res.Labels, truth); ri < tc.want {
			t.Errorf("%s: Rand index %.4f < %v (%d segments)", tc.opt.Method, ri, tc.want, res.Segments)
		}
		// Both objectives never increase.
		for i := 1; i < len(res.Bound); i++ {
			if res.Bound[i] > res.Bound[i-1]*(1+1e-12)+1e-9 {
				t.Errorf("%s: objective rose at iteration %d: %v → %v", tc.opt.Method, i+1, res.Bound[i-1], res.Bound[i])
			}
		}
		if tc.opt.Method == MethodDPMeans && !(res.Lambda2 > 0) {
			t.Errorf("dpmeans: λ² = %v", res.Lambda2)
		}
	}
}

func TestDPMeansExactClusters(t *testing.T) {
	// Three tight groups far apart: any λ² between the within- and between-group
	// distances recovers them exactly.
	x := []float64{0, 0.1, 0.2, 10, 10.1, 20, 20.2, 20.1}
	labels, trace, err := dpMeans(context.Background(), x, len(x), 1, 4, 50, maxLabels, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{0, 0, 0, 1, 1, 2, 2, 2}
	if partition.RandIndex(labels, want) != 1 {
		t.Errorf("labels %v, want the groups of %v", labels, want)
	}
	if len(trace) == 0 {
		t.Error("no objective trace")
	}
}

// TestDPMeansSaysWhenItRunsOutOfLabels gives DP-means more well-separated rows than it
// may open clusters: it fails with a line naming λ², where it used to stop opening
// clusters without a word and leave the rest in whichever was nearest.
func TestDPMeansSaysWhenItRunsOutOfLabels(t *testing.T) {
	x := make([]float64, 12)
	for i := range x {
		x[i] = float64(10 * i)
	}
	// The first pass starts from one cluster at the mean, so 12 rows use 13 labels.
	if _, _, err := dpMeans(context.Background(), x, len(x), 1, 1, 50, 13, nil); err != nil {
		t.Fatalf("12 rows, 13 labels: %v", err)
	}
	_, _, err := dpMeans(context.Background(), x, len(x), 1, 1, 50, 11, nil)
	if err == nil || !strings.Contains(err.Error(), "DP-means would open more than 11 segments: λ² = 1 is too small") {
		t.Fatalf("err = %v", err)
	}
}
