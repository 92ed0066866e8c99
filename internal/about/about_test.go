package about

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestMetadata(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		wantErr    string // empty: no error
		version    string
		build      int
		fyneDo     bool
	}{
		{"packaged", "Website = \"x\"\n[Details]\n  Icon = \"a.png\"\n  Name = \"Feature Lab\"\n  ID = \"io.github.featurelab\"\n  Version = \"0.1.0\"\n  Build = 3\n[Migrations]\n  fyneDo = true\n", "", "0.1.0", 3, true},
		{"no migrations", "[Details]\nName = \"F\"\nID = \"a.b\"\nVersion = \"1.2.3\"\nBuild = 1\n", "", "1.2.3", 1, false},
		{"no build", "[Details]\nName = \"F\"\nID = \"a.b\"\nVersion = \"1.2.3\"\n", "Build ≥ 1", "", 0, false},
		{"no ID", "[Details]\nName = \"F\"\nVersion = \"1.2.3\"\nBuild = 1\n", "needs ID", "", 0, false},
		{"not TOML", "[Details\n", "FyneApp.toml:", "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Metadata([]byte(tc.toml), nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Version != tc.version || m.Build != tc.build || m.Migrations["fyneDo"] != tc.fyneDo || m.Custom == nil {
				t.Fatalf("metadata %+v", m)
			}
		})
	}
}

func TestDescribeCommit(t *testing.T) {
	withVCS := &debug.BuildInfo{
		Deps: []*debug.Module{{Path: "fyne.io/fyne/v2", Version: "v2.8.1"}},
		Settings: []debug.BuildSetting{
			{Key: "-tags", Value: "migrated_fynedo"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	noVCS := &debug.BuildInfo{Deps: withVCS.Deps}
	for _, tc := range []struct {
		name   string
		linked string
		bi     *debug.BuildInfo
		commit string
		fyne   string
		tags   string
	}{
		{"make build", "9f6f38c0aa11", withVCS, "9f6f38c0aa11", "v2.8.1", "migrated_fynedo"},
		{"go build with VCS stamping", "", withVCS, "0123456789ab-dirty", "v2.8.1", "migrated_fynedo"},
		{"go build -buildvcs=false", "", noVCS, "unknown (not built by make build)", "v2.8.1", ""},
		{"no build info", "", nil, "unknown", "unknown", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := describe(current, tc.linked, tc.bi)
			if in.Commit != tc.commit || in.Fyne != tc.fyne || in.Tags != tc.tags {
				t.Fatalf("got commit %q fyne %q tags %q, want %q %q %q", in.Commit, in.Fyne, in.Tags, tc.commit, tc.fyne, tc.tags)
			}
			if s := in.String(); !strings.Contains(s, "commit: "+tc.commit+"\n") {
				t.Fatalf("String() lacks the commit:\n%s", s)
			}
		})
	}
}
