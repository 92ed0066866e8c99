package imgproc

import (
	"image"
	"os"
	"testing"
)

func BenchmarkZZRealCamera(b *testing.B) {
	data, err := os.ReadFile("/tmp/bench-folders/camera-40/Picture_1.jpg")
	if err != nil {
		b.Skip()
	}
	for _, to := range []image.Point{{320, 240}, {500, 375}, {160, 120}} {
		b.Run(image.Rect(0, 0, to.X, to.Y).String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := decodeJPEGReduced(data, image.Pt(4000, 3000), to); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
