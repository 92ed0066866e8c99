package imgproc_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"testing/fstest"

	"featurelab/imgproc"
)

func pngOf(w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

// Load a folder: images are found by content, sorted naturally, brought to the most common
// size; other files are skipped with a reason.
func ExampleLoadFS() {
	folder := fstest.MapFS{
		"Picture_10.png": {Data: pngOf(4, 3)},
		"Picture_2":      {Data: pngOf(4, 3)}, // no extension
		"Picture_1.png":  {Data: pngOf(8, 6)},
		"notes.txt":      {Data: []byte("not a picture")},
	}
	ds, err := imgproc.LoadFS(context.Background(), folder, ".", imgproc.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Names)
	fmt.Printf("%d×%d×%d, data matrix %d×%d\n", ds.Width, ds.Height, ds.Channels, len(ds.Names), ds.Values())
	fmt.Println("resized:", ds.Resized)
	fmt.Println("skipped:", ds.Skipped)
	// Output:
	// [Picture_1.png Picture_2 Picture_10.png]
	// 4×3×1, data matrix 3×12
	// resized: [Picture_1.png]
	// skipped: [{notes.txt not an image}]
}
