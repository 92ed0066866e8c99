package views

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
	"featurelab/app"
)

// segmentView segments one picture — an image of the open data set or any file — and
// shows original | segments | boundaries side by side.
type segmentView struct {
	ui *UI

	image    *escSelect
	openBtn  *widget.Button
	truthBtn *widget.Button // chooses the folder of human segmentations to score against
	truth    *widget.Label  // which folder that is
	method   *escSelect
	params   *paramSet
	byKey    map[string]*param
	form     *widget.Form
	more     *moreOptions // the advanced fields
	message  *widget.Label
	help     *widget.Label // the whole hint of the field with the focus
	runBtn   *widget.Button
	saveBtn  *widget.Button
	info     *widget.Label
	infoFig  *infoMark // what the figures of info are
	pics     [3]*canvas.Image
	bound    *plotView // the KPYP's bound after each iteration
	box      fyne.CanvasObject

	// UI goroutine only.
	methodKey string
	file      string // a picture opened from disk, shown first in the image list
	running   bool
	result    *app.Segmentation
	listed    *app.Prepared // the data set whose images the list offers
	truthDir  string        // the folder of human segmentations, "" for none
	shownFor  string        // the choice whose decoded picture pics[0] holds, "" for none
	shownMsg  string        // what the info line says of the segmentation shown, before its score
	shownBy   string        // the method of the segmentation shown

	openDialog  *pathDialog // the last Open image dialog shown (tests drive it)
	truthDialog *pathDialog // the last Human segmentations dialog shown (tests drive it)
}

const openedPrefix = "file: "

func newSegmentView(ui *UI) *segmentView {
	v := &segmentView{ui: ui}
	v.help = widget.NewLabel("")
	v.help.Wrapping = fyne.TextWrapWord
	v.help.Importance = widget.LowImportance
	var families []family
	for _, m := range algorithms.Segmenters() {
		families = append(families, family{m.Name, m.Params.Fields()})
	}
	v.params = newParamSet(families, func() { v.validate() }, v.help.SetText)
	v.byKey = v.params.byKey
	v.more = newMoreOptions()
	v.image = newSelect(nil, func(choice string) { v.showOriginal(choice) })
	v.image.PlaceHolder = "Choose an image"
	v.openBtn = widget.NewButtonWithIcon("Open image…", theme.FileImageIcon(), v.chooseFile)
	v.truthBtn = widget.NewButtonWithIcon("Human segmentations…", theme.FolderOpenIcon(), v.chooseTruth)
	v.truth = widget.NewLabel("")
	v.truth.Wrapping = fyne.TextWrapWord
	v.truth.Importance = widget.LowImportance
	v.setTruth(ui.fyneApp.Preferences().String(prefTruthFolder))
	var titles []string
	for _, m := range algorithms.Segmenters() {
		titles = append(titles, m.Title)
	}
	v.method = newSelect(titles, func(title string) {
		for _, m := range algorithms.Segmenters() {
			if m.Title == title {
				v.selectMethod(m.Name)
			}
		}
	})
	v.form = widget.NewForm()
	v.message = widget.NewLabel("")
	v.message.Importance = widget.DangerImportance
	v.message.Wrapping = fyne.TextWrapWord
	v.message.Hide()
	v.runBtn = widget.NewButtonWithIcon("Segment", theme.MediaPlayIcon(), v.start)
	v.runBtn.Importance = widget.HighImportance
	v.saveBtn = widget.NewButtonWithIcon("Save images…", theme.DocumentSaveIcon(), v.chooseSave)
	v.saveBtn.Disable()
	v.info = widget.NewLabel("Choose an image and press Segment.")
	v.info.Wrapping = fyne.TextWrapWord
	v.infoFig = newInfoMark()

	captions := [3]string{"Original", "Segments", "Boundaries"}
	var cells []fyne.CanvasObject
	for i := range v.pics {
		v.pics[i] = canvas.NewImageFromImage(nil)
		v.pics[i].FillMode = canvas.ImageFillContain
		// Small minimums: the pictures fill their pane, which must fit a 1024-pixel
		// window beside the parameters.
		v.pics[i].SetMinSize(fyne.NewSize(96, 72))
		caption := widget.NewLabelWithStyle(captions[i], fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		cells = append(cells, container.NewBorder(caption, nil, nil, nil, newZoomImage(ui.win, v.pics[i], func() (string, image.Image) {
			if v.shownFor == "" {
				return captions[i], nil
			}
			return captions[i] + " — " + choicePath(v.shownFor), nil
		})))
	}
	v.bound = newPlotView()
	v.bound.min = fyne.NewSize(96, 72)
	cells = append(cells, v.bound)
	caption := widget.NewLabel("Original").MinSize().Height
	grid := container.New(&fitGrid{aspect: v.aspect, caption: caption}, cells...)
	side := container.NewVBox(
		widget.NewLabelWithStyle("Image", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		v.image, v.openBtn, v.truthBtn, v.truth,
		widget.NewLabelWithStyle("Segmenter", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		v.method, v.form, v.more.accordion, v.help, v.message)
	// Segment and Save stay at the foot, as Run does in the run panel: inside the
	// scroll they were cut off at the bottom of a 700-pixel window. Cancel is the status
	// bar's, as for every job.
	foot := container.NewGridWithColumns(2, v.runBtn, v.saveBtn)
	split := container.NewHSplit(container.NewBorder(nil, foot, nil, nil, container.NewVScroll(side)),
		container.NewBorder(nil, withInfo(v.info, v.infoFig), nil, nil, grid))
	split.Offset = 0.36 // the form with its hints whole at 1024 pixels
	v.box = split

	method := ui.fyneApp.Preferences().StringWithFallback("segment.method", app.MethodKPYP)
	v.method.SetSelected(titles[0])
	if m, err := algorithms.LookupSegmenter(method); err == nil {
		v.method.SetSelected(m.Title)
	}
	return v
}

func (v *segmentView) object() fyne.CanvasObject { return v.box }

// selectMethod shows the method's parameters with the values last used.
func (v *segmentView) selectMethod(key string) {
	prefs := v.ui.fyneApp.Preferences()
	if v.methodKey != "" {
		v.saveParams()
	}
	v.methodKey = key
	prefs.SetString("segment.method", key)
	v.help.SetText("") // the help of a field focused under the previous method was that one's
	var more []*widget.FormItem
	v.form.Items, more = v.params.show(prefs, key, "segment."+key)
	v.form.Refresh()
	v.more.set(more)
	v.validate()
}

func (v *segmentView) saveParams() {
	v.params.save(v.ui.fyneApp.Preferences(), v.methodKey, "segment."+v.methodKey)
}

// validate shows the first bad field's message and disables Segment until it is mended.
func (v *segmentView) validate() bool {
	if v.runBtn == nil {
		return true // still being built
	}
	if err := v.params.firstInvalid(v.methodKey); err != nil {
		v.message.SetText(err.Error())
		v.message.Show()
		v.runBtn.Disable()
		return false
	}
	v.message.Hide()
	if !v.running {
		v.runBtn.Enable()
	}
	return true
}

// datasetChanged lists the new data set's images, keeping a picture opened from disk.
func (v *segmentView) datasetChanged(prep *app.Prepared) {
	var names []string
	if v.file != "" {
		names = append(names, openedPrefix+v.file)
	}
	if prep != nil {
		names = append(names, prep.Data.Names...)
	}
	newData := prep != v.listed
	v.listed = prep
	v.image.Options = names
	if newData && !strings.HasPrefix(v.shownFor, openedPrefix) {
		v.shownFor = "" // the same name in another data set is another picture
	}
	switch {
	case !slices.Contains(names, v.image.Selected):
		v.image.ClearSelected()
		if len(names) > 0 {
			v.image.SetSelected(names[0])
		}
	case newData && v.image.Selected != "" && !strings.HasPrefix(v.image.Selected, openedPrefix):
		v.showOriginal(v.image.Selected)
	}
	v.image.Refresh()
}

// prefLastPicture remembers the last picture opened from disk.
const prefLastPicture = "segment.lastPicture"

// chooseFile asks for a picture on disk to segment, by its path as Open folder asks for a
// folder, the last picture opened selected; Browse… lists pictures only.
func (v *segmentView) chooseFile() {
	v.openDialog = showPathDialog(v.ui.win, pathAsk{
		title:       "Open image",
		prompt:      "Type or paste the path of a picture to segment:",
		placeholder: "/path/to/photo.jpg or ~/Pictures/photo.png",
		start:       v.ui.fyneApp.Preferences().String(prefLastPicture),
		resolve:     picturePath,
		open:        v.openFile,
		browse:      v.browseFile,
	})
}

// browseFile shows Fyne's file chooser listing pictures only, in the folder of the path
// typed, else that of the last picture, else the last folder of images.
func (v *segmentView) browseFile(typed string) {
	prefs := v.ui.fyneApp.Preferences()
	start := prefs.String(prefLastFolder)
	for _, path := range []string{typed, prefs.String(prefLastPicture)} {
		if p, err := cleanPath(path, ""); err == nil {
			if st, err := os.Stat(p); err == nil {
				if !st.IsDir() {
					p = filepath.Dir(p)
				}
				start = p
				break
			}
		}
	}
	v.ui.askOpenPath(app.PictureExtensions, start, v.openFile)
}

// openFile adds a picture from disk to the image list and selects it.
func (v *segmentView) openFile(path string) {
	v.ui.fyneApp.Preferences().SetString(prefLastPicture, path)
	v.file = path
	v.datasetChanged(v.ui.dataset.prepared)
	v.image.SetSelected(openedPrefix + path)
}

// showOriginal shows the chosen picture at once, before it is segmented; it is read in
// the background, as a photo can take a while to decode.
func (v *segmentView) showOriginal(choice string) {
	if choice == "" {
		return
	}
	listed, src := v.listed, v.source()
	v.ui.jobs.Start("open-image", func(ctx context.Context) {
		img, err := openChoice(src, choice)
		fyne.Do(func() {
			if err != nil || v.image.Selected != choice || v.listed != listed {
				return // a bad file is reported when it is segmented; a newer choice or data set wins
			}
			v.shownFor = choice
			v.pics[0].Image, v.pics[1].Image, v.pics[2].Image = img, nil, nil
			for _, p := range v.pics {
				p.Refresh()
			}
			v.bound.SetPlot(nil)
			v.box.Refresh()
			v.info.SetText("Press Segment to segment " + choice + ".")
			v.infoFig.set()
		})
	})
}

// source is where the images of the list come from (the zero Source before any data set).
func (v *segmentView) source() app.Source {
	if v.listed == nil {
		return app.Source{}
	}
	return v.listed.Source
}

// choicePath is the path of a choice for messages: the file opened from disk, or the
// image's name in the data set.
func choicePath(choice string) string {
	if file, ok := strings.CutPrefix(choice, openedPrefix); ok {
		return file
	}
	return choice
}

// openChoice reads the chosen picture: a file opened from disk, or an image of the data
// set by its name.
func openChoice(src app.Source, choice string) (image.Image, error) {
	if file, ok := strings.CutPrefix(choice, openedPrefix); ok {
		return app.LoadImage(file)
	}
	return src.Image(choice)
}

// options reads the form through the registry's parser.
func (v *segmentView) options() (app.SegmentOptions, error) {
	m, err := algorithms.LookupSegmenter(v.methodKey)
	if err != nil {
		return app.SegmentOptions{}, err
	}
	o, err := m.Params.Parse(v.params.texts(m.Name))
	o.Method = m.Name
	return o, err
}

// start segments the chosen image in the background.
func (v *segmentView) start() {
	choice := v.image.Selected
	if choice == "" {
		dialog.ShowInformation("No image", "Choose an image of the data set or open one.", v.ui.win)
		return
	}
	if !v.validate() {
		return
	}
	v.saveParams()
	opt, err := v.options()
	if err != nil {
		v.message.SetText(err.Error())
		v.message.Show()
		return
	}
	src := v.source()
	// The picture on show is the one to segment: no need to decode it again.
	var shown image.Image
	if v.shownFor == choice {
		shown = v.pics[0].Image
	}
	v.running = true
	v.runBtn.Disable()
	v.ui.status.busy(app.Progress{Stage: "Segmenting " + choice})
	truthDir := v.truthDir
	v.ui.jobs.Start("segment", func(ctx context.Context) {
		seg, pics, err := segmentChoice(ctx, src, choice, shown, opt, func(pr app.Progress) {
			fyne.Do(func() { v.ui.status.busy(pr) })
		})
		var score string
		if err == nil && truthDir != "" {
			score = scoreText(seg, truthDir)
		}
		fyne.Do(func() { v.finish(choice, opt.Method, seg, pics, err, score) })
	})
}

// segmentChoice segments the chosen picture — img, or read from src when img is nil —
// and renders what the view shows; it runs on the background job.
func segmentChoice(ctx context.Context, src app.Source, choice string, img image.Image, opt app.SegmentOptions, report func(app.Progress)) (*app.Segmentation, app.SegmentPictures, error) {
	var err error
	if img == nil {
		if img, err = openChoice(src, choice); err != nil {
			return nil, app.SegmentPictures{}, err
		}
	}
	return app.Segment(ctx, img, choicePath(choice), opt, report)
}

func (v *segmentView) finish(choice, method string, seg *app.Segmentation, pics app.SegmentPictures, err error, score string) {
	v.ui.status.workDone()
	v.running = false
	v.validate()
	if !v.ui.jobSucceeded(err, cancelledText("Segmentation", v.result != nil), "Segmentation failed") {
		return
	}
	v.result, v.shownFor = seg, choice
	v.pics[0].Image, v.pics[1].Image, v.pics[2].Image = pics.Original, pics.Segments, pics.Boundaries
	for _, p := range v.pics {
		p.Refresh()
	}
	v.bound.SetPlot(app.BoundPlot(seg, method))
	v.box.Refresh() // the pictures' aspect may have changed the arrangement
	r := seg.Result
	b := pics.Original.Bounds()
	msg := fmt.Sprintf("%s (%d×%d): %d segments in %d iterations, %.2f s", choice, b.Dx(), b.Dy(), r.Segments, r.Iterations, r.Seconds)
	v.shownMsg, v.shownBy = msg, method
	v.showScore(score)
	v.saveBtn.Enable()
	v.ui.status.idle(msg)
}

// chooseSave asks for a folder and writes segments.png, boundaries.png and labels.png
// there, asking first if any of them exists.
func (v *segmentView) chooseSave() {
	if v.result == nil {
		return
	}
	v.ui.askExportFolder(app.ExistingOutputs, v.ui.SaveSegmentation)
}

// SaveSegmentation writes the shown segmentation's images to dir in the background.
func (ui *UI) SaveSegmentation(dir string) {
	seg := ui.segment.result
	if seg == nil {
		return
	}
	ui.saveImagesTo(dir, "segmentation", seg.WriteOutputs)
}

// aspect is the width over the height of the picture shown, or 0 for none.
func (v *segmentView) aspect() float64 {
	img := v.pics[0].Image
	if img == nil || img.Bounds().Empty() {
		return 0
	}
	b := img.Bounds()
	return float64(b.Dx()) / float64(b.Dy())
}

// prefTruthFolder remembers the folder of human segmentations.
const prefTruthFolder = "segment.truthFolder"

// chooseTruth asks for the folder of human segmentations (<id>_<k>.png, 16-bit labels,
// as in BSDS500) that segmentations are scored against, in a path dialog as Open
// image… does: Fyne's chooser alone starts in the folder the program was started from,
// and has no path field.
func (v *segmentView) chooseTruth() {
	v.truthDialog = showPathDialog(v.ui.win, pathAsk{
		title:       "Human segmentations",
		prompt:      "Type or paste the path of the folder of human segmentations (as BSDS500's groundTruth):",
		placeholder: "/path/to/BSDS500/groundTruth",
		start:       v.truthStart(),
		resolve:     folderPath,
		open:        v.truthChosen,
		browse:      v.browseTruth,
	})
}

// truthStart is the folder the human-segmentations dialog proposes: the one chosen
// before, else beside a picture opened from disk its folder's sibling groundTruth
// (BSDS500 keeps images/ and groundTruth/ side by side), else the picture's folder.
func (v *segmentView) truthStart() string {
	if v.truthDir != "" || v.file == "" {
		return v.truthDir
	}
	dir := filepath.Dir(v.file)
	if beside := filepath.Join(filepath.Dir(dir), "groundTruth"); isDir(beside) {
		return beside
	}
	return dir
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// browseTruth shows Fyne's folder chooser for the human segmentations, starting at the
// folder typed, else at the one proposed.
func (v *segmentView) browseTruth(typed string) {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, v.ui.win)
			return
		}
		if uri != nil {
			v.truthChosen(uri.Path())
		}
	}, v.ui.win)
	start, err := folderPath(typed)
	if err != nil {
		start = v.truthStart()
	}
	if l, err := listableURI(start); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560))
}

// setTruth sets the folder of human segmentations ("" for none) and remembers it.
func (v *segmentView) setTruth(dir string) {
	v.truthDir = dir
	v.ui.fyneApp.Preferences().SetString(prefTruthFolder, dir)
	if dir == "" {
		v.truth.SetText("Choose a folder of human segmentations to score each result against them.")
		return
	}
	v.truth.SetText("Scored against the human segmentations in " + dir)
}

// showScore shows the segmentation's info line with score (" · PRI …", or "" for none)
// and what its figures are.
func (v *segmentView) showScore(score string) {
	v.info.SetText(v.shownMsg + score)
	figures := []string{explainSegments}
	if strings.Contains(score, "PRI") {
		figures = append(figures, explainPRI, explainVoI)
	}
	if v.shownBy == app.MethodKPYP {
		figures = append(figures, explainBound)
	}
	v.infoFig.set(figures...)
}

// truthChosen sets the folder of human segmentations the user chose and scores the
// segmentation shown against it at once, so that Segment need not be pressed again and
// the line never keeps the previous folder's score.
func (v *segmentView) truthChosen(dir string) {
	v.setTruth(dir)
	seg := v.result
	if seg == nil || v.pics[1].Image == nil {
		return // none shown: the picture on show is waiting for Segment
	}
	v.showScore(" · scoring against " + dir + "…")
	v.ui.jobs.Start("score", func(context.Context) {
		score := scoreText(seg, dir)
		fyne.Do(func() {
			if v.result == seg && v.truthDir == dir {
				v.showScore(score)
			}
		})
	})
}

// scoreText words a segmentation's score against the human segmentations in dir, as
// segment-eval computes it, for the info line; it runs on the background job.
func scoreText(seg *app.Segmentation, dir string) string {
	s, err := seg.ScoreAgainst(dir)
	switch {
	case err != nil:
		return " · not scored: " + err.Error()
	case s == nil:
		return " · no human segmentation of it in " + dir
	}
	return fmt.Sprintf(" · PRI %.3f, VoI %.2f nats (%.2f bits) against %d human segmentations", s.PRI, s.VoINats, s.VoIBits, s.Truths)
}
