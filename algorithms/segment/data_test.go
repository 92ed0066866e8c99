package segment

import (
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
)

// dataDir holds the shared real data sets (../shared/data beside the checkout).
const dataDir = "/work/shared/data"

// loadImage decodes an image file with the standard library decoders.
func loadImage(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	return img, err
}
