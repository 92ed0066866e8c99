// Package about says which build of Feature Lab is running: the application's metadata
// from FyneApp.toml (the ID, name, version and build that `fyne package` would inject), the
// commit it was built from, and the Go and Fyne versions, for `featurelab --version` and
// the window's About.
//
// The metadata is read from FyneApp.toml itself, embedded by package main, so a plain
// `go build` and the packaged binary report the same version and build: there is no second
// copy of the numbers to forget.
package about

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"github.com/BurntSushi/toml"
)

// commit is the git commit the binary was built from, set by the Makefile with
// -ldflags "-X featurelab/internal/about.commit=…". The build info's vcs.revision is not
// enough: GOFLAGS=-buildvcs=false, as on our machines, leaves it out.
var commit string

// fyneModule is the module path whose version the build info gives as Fyne's.
const fyneModule = "fyne.io/fyne/v2"

// fyneApp is the part of FyneApp.toml this package reads: [Details] and [Migrations],
// what `fyne package` turns into the app's metadata.
type fyneApp struct {
	Details struct {
		Name, ID, Version string
		Build             int
	}
	Migrations map[string]bool
}

// Metadata parses FyneApp.toml into the app metadata that Fyne's packager injects into
// the binaries it builds (its fyne_metadata_init.go), with icon as the app's icon.
func Metadata(fyneAppTOML []byte, icon fyne.Resource) (fyne.AppMetadata, error) {
	var f fyneApp
	if err := toml.Unmarshal(fyneAppTOML, &f); err != nil {
		return fyne.AppMetadata{}, fmt.Errorf("FyneApp.toml: %w", err)
	}
	d := f.Details
	if d.ID == "" || d.Name == "" || d.Version == "" || d.Build < 1 {
		return fyne.AppMetadata{}, fmt.Errorf("FyneApp.toml: [Details] needs ID, Name, Version and a Build ≥ 1, got %q, %q, %q, %d", d.ID, d.Name, d.Version, d.Build)
	}
	if f.Migrations == nil {
		f.Migrations = map[string]bool{}
	}
	return fyne.AppMetadata{ID: d.ID, Name: d.Name, Version: d.Version, Build: d.Build,
		Icon: icon, Custom: map[string]string{}, Migrations: f.Migrations}, nil
}

var (
	mu      sync.Mutex
	current fyne.AppMetadata
)

// Set makes m the metadata of this process: Fyne's (app.SetMetadata, read by the window
// and by Fyne's own threading checks, which follow Migrations["fyneDo"]) and the one
// Current reports. Package main calls it before anything else runs.
func Set(m fyne.AppMetadata) {
	mu.Lock()
	current = m
	mu.Unlock()
	fyneapp.SetMetadata(m)
}

// Info is what a build is: the app metadata's name, ID, version and build number, the
// commit, the Go toolchain, the Fyne module's version and the build tags.
type Info struct {
	Name, ID, Version string
	Build             int
	Commit            string
	Go                string
	Fyne              string
	Tags              string
}

// Current describes this process's build, with the metadata given to Set.
func Current() Info {
	mu.Lock()
	m := current
	mu.Unlock()
	bi, _ := debug.ReadBuildInfo()
	return describe(m, commit, bi)
}

// describe puts the Info together from the metadata m, the commit set at link time and
// the build info bi (nil when the binary has none).
func describe(m fyne.AppMetadata, linked string, bi *debug.BuildInfo) Info {
	in := Info{Name: m.Name, ID: m.ID, Version: m.Version, Build: m.Build, Commit: linked,
		Go: runtime.Version(), Fyne: "unknown"}
	if bi == nil {
		if in.Commit == "" {
			in.Commit = "unknown"
		}
		return in
	}
	for _, d := range bi.Deps {
		if d.Path == fyneModule {
			in.Fyne = d.Version
			if d.Replace != nil {
				in.Fyne = d.Replace.Version + " (replaced)"
			}
		}
	}
	var revision string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "-tags":
			in.Tags = s.Value
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if in.Commit == "" && revision != "" {
		// A go build with VCS stamping on: the toolchain's own record of the commit.
		in.Commit = revision[:min(12, len(revision))]
		if modified {
			in.Commit += "-dirty"
		}
	}
	if in.Commit == "" {
		in.Commit = "unknown (not built by make build)"
	}
	return in
}

// String is the text of `featurelab --version` and the window's About, one fact a line.
func (in Info) String() string {
	tags := in.Tags
	if tags == "" {
		tags = "none"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (build %d)\n", in.Name, in.Version, in.Build)
	fmt.Fprintf(&b, "commit: %s\n", in.Commit)
	fmt.Fprintf(&b, "go:     %s %s/%s\n", in.Go, runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "fyne:   %s\n", in.Fyne)
	fmt.Fprintf(&b, "tags:   %s\n", tags)
	fmt.Fprintf(&b, "id:     %s\n", in.ID)
	return b.String()
}
