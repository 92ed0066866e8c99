package segment

import (
	"context"
	"path/filepath"
	"testing"
)

func BenchmarkPicture1(b *testing.B) {
	img, err := loadImage(filepath.Join(dataDir, "tabletop", "Picture_1.jpg"))
	if err != nil {
		b.Skip(err)
	}
	for i := 0; i < b.N; i++ {
		res, err := Segment(context.Background(), img, Options{Cell: 8, Width: 0.5})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Iterations), "iters")
	}
}
