package views

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
)

// TestEveryParameterHasAField walks the registry: every parameter of every learner,
// segmenter and the co-segmentation has a field in its form while its algorithm is
// shown, starting at the registry's default (the command line's too), and a value out of
// its range disables the run with one line naming the parameter.
func TestEveryParameterHasAField(t *testing.T) {
	ui := newTestUI(t)
	type form struct {
		ps     *paramSet
		items  func() []*widget.FormItem
		run    *widget.Button
		msg    *widget.Label
		choose func(name string)
	}
	check := func(what string, f form, name string, fields []algorithms.Field) {
		t.Helper()
		f.choose(name)
		items := f.items()
		for _, fd := range fields {
			p, ok := f.ps.byKey[fd.Key]
			if !ok || !slices.Contains(items, p.item) {
				t.Errorf("%s %s: no field for %s", what, name, fd.Key)
				continue
			}
			if got := p.text(); got != fd.Default && !(fd.Key == "lambda2" && got != "") {
				t.Errorf("%s %s: %s starts at %q, the registry's default is %q", what, name, fd.Key, got, fd.Default)
			}
			if p.entry == nil {
				continue // a switch or a choice can hold no value out of range
			}
			p.entry.SetText("-9223372036854775808")
			if !f.run.Disabled() || !strings.HasPrefix(f.msg.Text, fd.Key+" must be") || strings.Contains(f.msg.Text, "\n") {
				t.Errorf("%s %s: %s out of range: run enabled %v, message %q", what, name, fd.Key, !f.run.Disabled(), f.msg.Text)
			}
			p.entry.SetText(fd.Default)
		}
	}
	run := form{ui.run.params, func() []*widget.FormItem { return append(ui.run.form.Items, ui.run.more.form.Items...) },
		ui.run.runBtn, ui.run.message, func(name string) { ui.run.picker.SetSelected(algorithms.Title(name)) }}
	for _, a := range algorithms.Learners() {
		check("learner", run, a.Name, a.Params.Fields())
	}
	seg := form{ui.segment.params, func() []*widget.FormItem { return append(ui.segment.form.Items, ui.segment.more.form.Items...) },
		ui.segment.runBtn, ui.segment.message, func(name string) {
			m, _ := algorithms.LookupSegmenter(name)
			ui.segment.method.SetSelected(m.Title)
		}}
	for _, m := range algorithms.Segmenters() {
		check("segmenter", seg, m.Name, m.Params.Fields())
	}
	coseg := form{ui.coseg.params, func() []*widget.FormItem { return append(ui.coseg.form.Items, ui.coseg.more.form.Items...) },
		ui.coseg.runBtn, ui.coseg.message, func(string) {}}
	check("co-segmentation", coseg, cosegmentKey, algorithms.Cosegmenter.Fields())
}

// renderedHints is the hint drawn under each field of form, by the field's widget: what
// the user reads, which the form keeps from when it first drew the widget unless told.
func renderedHints(form *widget.Form) map[fyne.CanvasObject]string {
	hints := map[fyne.CanvasObject]string{}
	walkVisible(form, func(o fyne.CanvasObject) {
		c, ok := o.(*fyne.Container)
		if !ok || len(c.Objects) != 2 {
			return
		}
		if box, ok := c.Objects[1].(*fyne.Container); ok && len(box.Objects) == 1 {
			if text, ok := box.Objects[0].(*canvas.Text); ok {
				hints[c.Objects[0]] = text.Text
			}
		}
	})
	return hints
}

// TestEachFieldShowsItsOwnAlgorithmsHint: switching the algorithm (every learner after
// every other, and the segmenters), each field shows the hint the registry gives it for
// the algorithm now shown — K-features' "features" under K-means' K was K-features' own
// — and the whole help of a field focused under another algorithm is gone.
func TestEachFieldShowsItsOwnAlgorithmsHint(t *testing.T) {
	ui := newTestUI(t)
	ui.win.Resize(fyne.NewSize(1024, 700))
	check := func(what string, form *widget.Form, ps *paramSet, fields []algorithms.Field) {
		t.Helper()
		drawn := renderedHints(form)
		for _, fd := range fields {
			if fd.Advanced {
				continue
			}
			p := ps.byKey[fd.Key]
			w := p.item.Widget
			if got, want := drawn[w], shortHint(fd.Hint); got != want {
				t.Errorf("%s: %s reads %q, its hint is %q", what, fd.Label, got, want)
			}
		}
	}
	learners := algorithms.Learners()
	for _, from := range learners {
		for _, to := range learners {
			ui.run.picker.SetSelected(from.Title)
			if p, ok := ui.run.byKey["k"]; ok && p.appliesTo(from.Name) {
				ui.win.Canvas().Focus(p.entry)
			}
			ui.run.picker.SetSelected(to.Title)
			check(from.Name+" → "+to.Name, ui.run.form, ui.run.params, to.Params.Fields())
			if help := ui.run.help.Text; help != "" && !to.Uses("k") {
				t.Errorf("%s → %s: the help of a field %s does not take stays: %q", from.Name, to.Name, to.Name, help)
			}
			ui.win.Canvas().Unfocus()
		}
	}
	for _, from := range algorithms.Segmenters() {
		for _, to := range algorithms.Segmenters() {
			ui.segment.method.SetSelected(from.Title)
			ui.segment.method.SetSelected(to.Title)
			check(from.Name+" → "+to.Name, ui.segment.form, ui.segment.params, to.Params.Fields())
		}
	}
}
