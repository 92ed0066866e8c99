package views

import (
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// queueRunner holds background jobs until the test runs them on its own goroutine.
// Under Fyne's test driver fyne.Do runs at once on the caller, so jobs on other goroutines
// would touch widgets concurrently with the test; the real driver serialises them instead.
type queueRunner struct {
	mu   sync.Mutex
	jobs []func()
}

func (q *queueRunner) run(job func()) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
}

// next runs the first queued job and reports whether there was one; the rest stay queued.
func (q *queueRunner) next() bool {
	q.mu.Lock()
	if len(q.jobs) == 0 {
		q.mu.Unlock()
		return false
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.mu.Unlock()
	job()
	return true
}

// drain runs queued jobs, and any they queue, until none is left.
func (q *queueRunner) drain() {
	for q.next() {
	}
}

// testUI is a window whose background jobs the test runs with wait.
type testUI struct {
	*UI
	queue *queueRunner
}

// Wait runs every pending job to the end on the test goroutine.
func (t testUI) Wait() {
	t.queue.drain()
	t.UI.Wait()
}

func newTestUI(t *testing.T) testUI {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow(Title)
	q := &queueRunner{}
	ui := testUI{New(a, w, q.run), q}
	w.SetContent(ui.Content())
	t.Cleanup(func() { ui.Wait(); w.Close(); ui.release() })
	return ui
}

// release drops what the closed window's panels hold. Fyne's test driver keeps every
// widget's renderer in a package-level cache after the window closes (the GLFW driver
// destroys them in Close; the test driver only lets them expire after a minute, on a
// Capture), and the widgets reach the UI through their callbacks: every test's data set
// (300 MB for the tabletop sample: pixels and PCA model) stayed alive, 1.2 GB more per
// three tests, and the package's test binary peaked at 16.6 GB under -race, which
// multiplies the heap by about four. With the panels zeroed the heap after a test is
// tens of MB.
func (ui testUI) release() {
	*ui.dataset = datasetPanel{}
	*ui.run = runPanel{}
	*ui.features = featuresView{}
	*ui.codes = codesView{}
	*ui.diag = diagnosticsView{}
	*ui.compare = compareView{}
	*ui.segment = segmentView{}
	*ui.coseg = cosegmentView{}
	ui.recent.forget()
	*ui.UI = UI{}
	ui.queue.jobs = nil
}

// TestWindowShowsTheBuiltInSample: the tabletop sample, loaded, fills the thumbnail grid
// and says what was loaded. It is loaded from the data prepared once per test binary
// (loadedUI): the load with its progress and previews runs for real in
// TestSamplesMenuLoadsAnotherSet, TestExposureIsShown and the folder tests.
func TestWindowShowsTheBuiltInSample(t *testing.T) {
	ui := loadedUI(t)
	if n := ui.dataset.grid.Length(); n < 60 {
		t.Fatalf("thumbnail grid shows %d images, want ≥ 60", n)
	}
	if !strings.Contains(ui.dataset.info.Text, "320×240 colour") {
		t.Fatalf("info %q", ui.dataset.info.Text)
	}
	if w := ui.dataset.working; !w.Visible() || !strings.HasPrefix(w.Text, "Working size 320×240: the size of all 100 images") {
		t.Errorf("working size line %q (shown %v)", w.Text, w.Visible())
	}
	if !strings.HasPrefix(ui.status.text(), "Loaded") {
		t.Fatalf("status %q", ui.status.text())
	}
}

func TestSamplesMenuLoadsAnotherSet(t *testing.T) {
	ui := newTestUI(t)
	ui.dataset.samples.SetSelected("dice")
	ui.Wait()
	if n := ui.dataset.grid.Length(); n != 100 {
		t.Fatalf("dice sample shows %d images, want 100", n)
	}
	if !strings.Contains(ui.dataset.info.Text, "14×14 grey") {
		t.Fatalf("info %q", ui.dataset.info.Text)
	}
}

func TestOpeningAMissingFolderKeepsTheDataSet(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("dice")
	ui.Wait()
	ui.LoadFolder("/no/such/folder")
	ui.Wait()
	if !strings.HasPrefix(ui.status.text(), "Could not open") || !strings.Contains(overlayText(ui.win), "/no/such/folder: no such folder") {
		t.Fatalf("status %q, dialog %q", ui.status.text(), overlayText(ui.win))
	}
	if n := ui.dataset.grid.Length(); n != 100 {
		t.Fatalf("the loaded data set was lost: grid shows %d", n)
	}
	if got := ui.fyneApp.Preferences().String(prefLastFolder); got != "/no/such/folder" {
		t.Fatalf("last folder preference %q", got)
	}
	// A folder that did not load is no recent folder; one that did is the first.
	if got := ui.fyneApp.Preferences().StringList(prefRecentFolders); len(got) != 0 {
		t.Fatalf("recent folders after a failed load: %q", got)
	}
	dir := t.TempDir()
	writePNGs(t, dir, []string{"a.png", "b.png"}, func(i int) image.Image {
		img := image.NewGray(image.Rect(0, 0, 8, 8))
		img.Pix[i] = 255
		return img
	})
	ui.LoadFolder(dir)
	ui.Wait()
	if got := ui.fyneApp.Preferences().StringList(prefRecentFolders); len(got) != 1 || got[0] != dir {
		t.Fatalf("recent folders after loading %s: %q", dir, got)
	}
}

func TestOpenFolderButtonLoadsAFolder(t *testing.T) {
	ui := newTestUI(t)
	dir := t.TempDir()
	if err := writeSampleTo(dir, "faces"); err != nil {
		t.Fatal(err)
	}
	// The folder dialog itself is Fyne's; tapping the button must show it without a panic.
	test.Tap(ui.dataset.open)
	ui.LoadFolder(dir)
	ui.Wait()
	if n := ui.dataset.grid.Length(); n < 40 {
		t.Fatalf("faces folder shows %d images", n)
	}
	if !strings.Contains(ui.dataset.info.Text, dir) {
		t.Fatalf("info %q does not name the folder", ui.dataset.info.Text)
	}
}

// A folder whose images decode but hold nothing to learn (every image the same black
// picture) is previewed while it loads, then the window says why in the command line's
// words and goes back to the data set it had.
func TestAFailedPCAGoesBackToThePreviousDataSet(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("dice")
	ui.Wait()
	before := ui.dataset.info.Text
	dir := t.TempDir()
	img := image.NewGray(image.Rect(0, 0, 8, 6))
	writePNGs(t, dir, []string{"a.png", "b.png", "c.png"}, func(int) image.Image { return img })
	ui.LoadFolder(dir)
	ui.Wait()
	if !strings.HasPrefix(ui.status.text(), "Could not open") || !strings.Contains(strings.ToLower(overlayText(ui.win)), "all 3 images are black: there is nothing to learn") {
		t.Fatalf("status %q, dialog %q", ui.status.text(), overlayText(ui.win))
	}
	if n := ui.dataset.grid.Length(); n != 100 || ui.dataset.info.Text != before || ui.dataset.names[0] != ui.dataset.prepared.Data.Names[0] {
		t.Fatalf("after the failed PCA the grid shows %d images, info %q", n, ui.dataset.info.Text)
	}
}

// A folder that would not fit in memory (FEATURELAB_MEMORY here) is refused: the dialog
// says what it needs and what to change, and the window keeps the data set it had.
func TestAFolderThatDoesNotFitIsRefused(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("dice")
	ui.Wait()
	dir := t.TempDir()
	writePNGs(t, dir, []string{"a.png", "b.png", "c.png"}, func(i int) image.Image {
		img := image.NewGray(image.Rect(0, 0, 64, 48))
		img.Pix[i] = 255
		return img
	})
	// 3 × 64×48 × 4 B = 36 kB of pixels, and the PCA's share, which at any size is more
	// than 40 kB: no size is advised, as none would fit.
	t.Setenv("FEATURELAB_MEMORY", "40K")
	ui.LoadFolder(dir)
	ui.Wait()
	if msg := overlayText(ui.win); !strings.Contains(msg, "3 images of 64×48×1 need ") || !strings.Contains(msg, " (36 kB of pixels, ") ||
		!strings.Contains(msg, " for the PCA and the run), more than the 40 kB there is room for: even at 10x8 they would need ") ||
		!strings.Contains(msg, "load fewer images, or give it more memory (FEATURELAB_MEMORY)") {
		t.Fatalf("status %q, dialog %q", ui.status.text(), msg)
	}
	if n := ui.dataset.grid.Length(); n != 100 {
		t.Fatalf("after the refusal the grid shows %d images, want the dice's 100", n)
	}
}

// A folder of photos far larger than the working size (camera photos, here 1600×1200)
// opens at 320×240: the panel says so and shows a thumbnail of each.
func TestLargePhotosOpenAtTheWorkingSize(t *testing.T) {
	ui := newTestUI(t)
	dir := t.TempDir()
	for i := range 3 {
		img := image.NewRGBA(image.Rect(0, 0, 1600, 1200))
		for y := 0; y < 1200; y++ {
			for x := 0; x < 1600; x++ {
				img.SetRGBA(x, y, color.RGBA{uint8(x / 7), uint8(y / 5), uint8(80 * i), 255})
			}
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("IMG_%04d.JPG", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := jpeg.Encode(f, img, nil); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	ui.LoadFolder(dir)
	ui.Wait()
	if !strings.Contains(ui.dataset.info.Text, "3 images, 320×240 colour") {
		t.Fatalf("info %q, status %q", ui.dataset.info.Text, ui.status.text())
	}
	if n := ui.dataset.grid.Length(); n != 3 {
		t.Fatalf("the grid shows %d thumbnails, want 3", n)
	}
}

// While another folder is previewed, the skipped-files list of the last one is hidden, and
// it comes back if the new folder fails (issue 14: it stayed on screen during the load).
func TestPreviewHidesTheLastFoldersSkips(t *testing.T) {
	ui := newTestUI(t)
	dir := t.TempDir()
	writeTwoPictures(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	ui.LoadFolder(dir)
	ui.Wait()
	p := ui.dataset
	if !p.skipped.box.Visible() || !strings.Contains(p.skipped.text(), "notes.txt") {
		t.Fatalf("skipped list %q (visible %v) after loading a folder with a text file", p.skipped.text(), p.skipped.box.Visible())
	}
	p.preview(app.Source{Dir: "/elsewhere"}, []string{"x.png"}, []image.Image{image.NewGray(image.Rect(0, 0, 8, 6))})
	if p.skipped.box.Visible() || p.skipped.text() != "" {
		t.Fatalf("during the preview of another folder the list shows %q", p.skipped.text())
	}
	p.restore()
	if !p.skipped.box.Visible() || !strings.Contains(p.skipped.text(), "notes.txt") {
		t.Fatalf("after going back the list shows %q (visible %v)", p.skipped.text(), p.skipped.box.Visible())
	}
}

// The codes table's row numbers have room for five digits: with an empty template the
// column was one digit wide, and row 24 showed as "2".
func TestCodesRowNumbersFit(t *testing.T) {
	ui := newTestUI(t)
	header := ui.codes.table.CreateHeader()
	if got, want := header.MinSize().Width, widget.NewLabel("10000").MinSize().Width; got < want {
		t.Fatalf("row header %v wide, want at least %v for 10000", got, want)
	}
}
