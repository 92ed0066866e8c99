// Command featurelab finds the latent binary features shared by a folder of images. With
// no arguments it opens the window on the built-in sample; `analyze`, `segment`,
// `segment-eval`, `cosegment` and `samples` run the same pipeline headless (see README.md).
package main

import (
	"os"

	"featurelab/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
