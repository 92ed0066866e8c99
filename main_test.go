package main

import (
	"testing"

	"featurelab/internal/about"
	"featurelab/views"
)

// TestEmbeddedMetadata: the FyneApp.toml built into the binary parses, and names the app
// as the window does (its ID keys the preferences, its name is the window's title).
func TestEmbeddedMetadata(t *testing.T) {
	m, err := about.Metadata(fyneAppTOML, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ what, got, want string }{
		{"ID", m.ID, views.AppID},
		{"Name", m.Name, views.Title},
	} {
		if tc.got != tc.want {
			t.Errorf("FyneApp.toml's %s is %q, the window's %q", tc.what, tc.got, tc.want)
		}
	}
}
