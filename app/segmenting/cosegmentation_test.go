package segmenting

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"featurelab/algorithms/cosegment"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
)

// TestCosegmentRefusesWhatDoesNotFit: a co-segmentation that would take more memory than
// the budget leaves beside the loaded images is refused in one line that names the need,
// the room and what to change, before anything is clustered; with larger cells it runs.
func TestCosegmentRefusesWhatDoesNotFit(t *testing.T) {
	src := pipeline.Source{Sample: "tabletop"}
	ds, err := src.Load(context.Background(), imgproc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	need := cosegment.Memory(len(ds.Names), ds.Width, ds.Height, cosegment.Options{})
	room := need / 2
	t.Setenv(pipeline.MemoryEnv, strconv.FormatInt(imgproc.DataBytes(len(ds.Names), ds.Values())+room, 10))
	_, err = cosegmentData(context.Background(), src, ds, cosegment.Options{}, pipeline.NewTracker(nil))
	if err == nil || strings.Count(err.Error(), "\n") > 0 ||
		!strings.Contains(err.Error(), "in cells of 8 needs") || !strings.Contains(err.Error(), "use cells of 16") {
		t.Fatalf("error %v", err)
	}
	c, err := cosegmentData(context.Background(), src, ds, cosegment.Options{Cell: 16}, pipeline.NewTracker(nil))
	if err != nil || c.Result.K < 2 {
		t.Fatalf("cells of 16: %v", err)
	}
}
