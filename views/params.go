package views

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
)

// paramSet is a form generated from the registry's descriptions of a family of algorithms
// (the learners, the segmenters, the co-segmentation): one field per parameter key, each
// algorithm showing the fields it takes with its own label, hint, default and check. No
// default, range or help text is written here.
type paramSet struct {
	order  []string                               // the keys, in the order of first appearance
	fields map[string]map[string]algorithms.Field // algorithm → key → its description
	byKey  map[string]*param
	shown  string // the algorithm shown (UI goroutine only)
}

// param is one field of a form: an entry for a number, a check for a switch, a select for
// a choice.
type param struct {
	key    string
	set    *paramSet
	entry  *hintEntry
	check  *escCheck
	choice *escSelect
	item   *widget.FormItem
}

// family is one algorithm's name and the fields it takes.
type family struct {
	name   string
	fields []algorithms.Field
}

// newParamSet makes the fields of the families. changed is called when a value changes;
// focused with the whole explanation of the field that gets the focus.
func newParamSet(families []family, changed func(), focused func(help string)) *paramSet {
	ps := &paramSet{fields: map[string]map[string]algorithms.Field{}, byKey: map[string]*param{}}
	for _, f := range families {
		ps.fields[f.name] = map[string]algorithms.Field{}
		for _, fd := range f.fields {
			ps.fields[f.name][fd.Key] = fd
			if _, ok := ps.byKey[fd.Key]; ok {
				continue
			}
			ps.order = append(ps.order, fd.Key)
			p := &param{key: fd.Key, set: ps}
			var w fyne.CanvasObject
			switch fd.Type {
			case algorithms.Bool:
				p.check = newCheck("", func(bool) { changed() })
				w = p.check
			case algorithms.Choice:
				p.choice = newSelect(fd.Choices, func(string) { changed() })
				w = p.choice
			default:
				p.entry = newHintEntry()
				p.entry.Validator = p.validate
				p.entry.OnChanged = func(string) { changed() }
				p.entry.focused = func() {
					if fd, ok := p.field(); ok {
						focused(fd.Label + ": " + fd.Help + ".")
					}
				}
				w = p.entry
			}
			p.item = widget.NewFormItem(fd.Label, w)
			ps.byKey[fd.Key] = p
		}
	}
	return ps
}

// field is the description of p for the algorithm shown.
func (p *param) field() (algorithms.Field, bool) {
	fd, ok := p.set.fields[p.set.shown][p.key]
	return fd, ok
}

// appliesTo reports whether algo takes the parameter.
func (p *param) appliesTo(algo string) bool {
	_, ok := p.set.fields[algo][p.key]
	return ok
}

// text is the field's value as typed.
func (p *param) text() string {
	switch {
	case p.check != nil:
		if p.check.Checked {
			return "true"
		}
		return "false"
	case p.choice != nil:
		return p.choice.Selected
	}
	return strings.TrimSpace(p.entry.Text)
}

// setText shows v in the field.
func (p *param) setText(v string) {
	switch {
	case p.check != nil:
		p.check.SetChecked(v == "true")
	case p.choice != nil:
		p.choice.SetSelected(v)
	default:
		p.entry.SetText(v)
	}
}

// validate is the shown algorithm's check of text: one line naming the parameter.
func (p *param) validate(text string) error {
	fd, ok := p.field()
	if !ok {
		return nil
	}
	return fd.Check(text)
}

// prefKey is where a parameter's value is remembered, per algorithm.
func prefKey(algo, key string) string { return "param." + algo + "." + key }

// show fills in, for algo, the fields it takes — the value remembered under prefName,
// else its default — and returns their form items: the common ones, and the advanced
// ones the form keeps under "More".
func (ps *paramSet) show(prefs fyne.Preferences, algo, prefName string) (items, more []*widget.FormItem) {
	ps.shown = algo
	for _, key := range ps.order {
		fd, ok := ps.fields[algo][key]
		if !ok {
			continue
		}
		p := ps.byKey[key]
		p.item.Text = fd.Label
		p.item.HintText = shortHint(fd.Hint)
		if p.entry != nil {
			p.entry.SetPlaceHolder("")
			if fd.Auto != "" {
				p.entry.SetPlaceHolder("auto")
			}
		}
		v := prefs.StringWithFallback(prefKey(prefName, key), fd.Default)
		if fd.Check(v) != nil {
			v = fd.Default
		}
		p.setText(v)
		if fd.Advanced {
			more = append(more, p.item)
		} else {
			items = append(items, p.item)
		}
	}
	return items, more
}

// save remembers the values of the fields algo takes, under the preference name prefName.
func (ps *paramSet) save(prefs fyne.Preferences, algo, prefName string) {
	for _, key := range ps.order {
		if _, ok := ps.fields[algo][key]; ok {
			prefs.SetString(prefKey(prefName, key), ps.byKey[key].text())
		}
	}
}

// firstInvalid is the error of the first field algo takes whose value is refused.
func (ps *paramSet) firstInvalid(algo string) error {
	for _, key := range ps.order {
		if fd, ok := ps.fields[algo][key]; ok {
			if err := fd.Check(ps.byKey[key].text()); err != nil {
				return err
			}
		}
	}
	return nil
}

// texts is the values of the fields algo takes, by key, for the registry's Params.Parse.
func (ps *paramSet) texts(algo string) map[string]string {
	given := map[string]string{}
	for _, key := range ps.order {
		if _, ok := ps.fields[algo][key]; ok {
			given[key] = ps.byKey[key].text()
		}
	}
	return given
}

// shortHintRunes is the longest hint shown under a field: a form's hints never wrap, so
// a longer one widened the run panel, and the window with it, past a 1024-pixel screen.
const shortHintRunes = 28

// shortHint is the part of hint shown under its field.
func shortHint(hint string) string {
	short, _, _ := strings.Cut(hint, "; ")
	if r := []rune(short); len(r) > shortHintRunes {
		short = string(r[:shortHintRunes-1]) + "…"
	}
	return short
}

// hintEntry is an entry that says when it gets the focus.
type hintEntry struct {
	widget.Entry
	focused func()
}

func newHintEntry() *hintEntry {
	e := &hintEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey is the entry's, but for Esc: that leaves the entry and goes to the window
// (escapeToWindow), where it cancels what runs. An entry keeps the keys typed into it,
// so a user who clicked into a field during a run could not cancel it with Esc.
func (e *hintEntry) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(e, ev) {
		e.Entry.TypedKey(ev)
	}
}

// FocusGained is the entry's, then tells the panel.
func (e *hintEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.focused != nil {
		e.focused()
	}
}

// moreOptions is the collapsed "More options" part of a form, holding its advanced
// fields; hidden when the algorithm shown has none.
type moreOptions struct {
	form      *widget.Form
	accordion *widget.Accordion
}

func newMoreOptions() *moreOptions {
	m := &moreOptions{form: widget.NewForm()}
	m.accordion = widget.NewAccordion(widget.NewAccordionItem("More options", m.form))
	return m
}

// set shows items under "More options", or hides it when there are none.
func (m *moreOptions) set(items []*widget.FormItem) {
	m.form.Items = items
	m.form.Refresh()
	if len(items) == 0 {
		m.accordion.Hide()
	} else {
		m.accordion.Show()
	}
}
