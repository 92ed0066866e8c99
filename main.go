// Command featurelab finds the latent binary features shared by a folder of images. With
// no arguments it opens the window on the built-in sample; `analyze`, `segment` and
// `samples` run the same pipeline headless (see README.md).
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
