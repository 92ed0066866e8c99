package views

import (
	"slices"
	"strings"
	"testing"

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
