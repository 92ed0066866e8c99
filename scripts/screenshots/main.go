// Command screenshots prints the digest of the window code the guide's pictures show
// (views.SourcesDigest): scripts/screenshots.sh writes it to docs/img/SOURCES beside the
// pictures, and TestGuidePicturesAreCurrent fails when the code has changed since.
package main

import (
	"fmt"
	"os"

	"featurelab/views/guide"
)

func main() {
	d, err := guide.SourcesDigest("views")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(d)
}
