package views

import (
	"context"
	"fmt"
	"image"
	"sync"
	"testing"

	"featurelab/app"
)

// shared holds the data sets prepared for window tests, by request, each prepared once
// per test binary: most window tests are about keys, zoom, layout or a run, not the load,
// and every window preparing the tabletop sample again (100 pictures, PCA of 100) cost
// most of their time. The tests about loading load for real.
var shared struct {
	mu       sync.Mutex
	prepared map[string]func() (*app.Prepared, error)
}

// sharedPrepare is app.Prepare for the load job of a test window, the data
// set prepared by the first window that asked and handed to the others. It previews the
// pictures before it returns, as the real load does. The prepared data keep only what
// is the same whoever reads them (thumbnails, the shrunk PCA, readings cached by fit).
func sharedPrepare(_ context.Context, req app.Request, _ func(app.Progress), preview func([]string, []image.Image)) (*app.Prepared, error) {
	key := fmt.Sprintf("%+v", req)
	shared.mu.Lock()
	if shared.prepared == nil {
		shared.prepared = map[string]func() (*app.Prepared, error){}
	}
	prepare, ok := shared.prepared[key]
	if !ok {
		// Not the asking window's context: a cancelled load would spoil it for the rest.
		prepare = sync.OnceValues(func() (*app.Prepared, error) {
			return app.Prepare(context.Background(), req, nil, nil)
		})
		shared.prepared[key] = prepare
	}
	shared.mu.Unlock()
	prep, err := prepare()
	if err == nil && preview != nil {
		preview(prep.Data.Names, prep.Thumbnails())
	}
	return prep, err
}

// loadedUI is a window with the built-in tabletop sample loaded, as the window opens,
// from the data prepared once per test binary (loadShared): for the tests whose checks
// are about the tabletop's scenes (the K it chooses, what its features add) or its
// pictures. Under -race its preparation costs several times a run on it.
func loadedUI(t *testing.T) testUI {
	t.Helper()
	ui := newTestUI(t)
	loadShared(t, ui, "tabletop")
	return ui
}

// smallUI is a window with the built-in card deck loaded (40 pictures of 120×168, a
// fiftieth of the tabletop's pixels), prepared once per test binary: for the window
// tests whose question is the window (keys, buttons, layout, what a result shows), not
// what an algorithm finds in the tabletop's scenes.
func smallUI(t *testing.T) testUI {
	t.Helper()
	ui := newTestUI(t)
	loadShared(t, ui, "cards")
	return ui
}

// loadShared loads the built-in sample into ui from the data prepared once per test
// binary (sharedPrepare); what the test loads next is loaded for real.
func loadShared(t *testing.T, ui testUI, sample string) {
	t.Helper()
	ui.dataset.prepare = sharedPrepare
	ui.LoadSample(sample)
	ui.Wait()
	ui.dataset.prepare = app.Prepare
	if ui.dataset.prepared == nil {
		t.Fatalf("sample %s did not load: %s", sample, ui.status.text())
	}
}
