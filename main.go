// Command featurelab finds the latent binary features shared by a folder of images. With
// no arguments it opens the window on the built-in sample; `analyze`, `segment`,
// `segment-eval`, `cosegment` and `samples` run the same pipeline headless, and
// `--version` says which build this is (see README.md).
package main

import (
	_ "embed"
	"fmt"
	"os"

	"fyne.io/fyne/v2"

	"featurelab/assets"
	"featurelab/cli"
	"featurelab/internal/about"
)

// fyneAppTOML is the app's metadata file, the one `fyne package` reads: embedding it gives
// every build, `go build` included, the ID, version and build number the package has.
//
//go:embed FyneApp.toml
var fyneAppTOML []byte

func main() {
	meta, err := about.Metadata(fyneAppTOML, fyne.NewStaticResource("icon.png", assets.Icon()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "featurelab: internal error: "+err.Error())
		os.Exit(2)
	}
	about.Set(meta)
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
