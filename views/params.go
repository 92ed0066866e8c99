package views

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// param is one numeric field of the run form: an entry with a validator that names the
// parameter in its message, and the algorithms it applies to.
type param struct {
	key     string // preference key and option name: "k", "lambda2", …
	label   string
	hint    string // the whole explanation, shown when the field has the focus
	entry   *hintEntry
	algos   []string
	isFloat bool
	min     float64
	item    *widget.FormItem
	// emptyOK, when set, says whether the field may be left empty for the algorithm
	// shown: λ² for stepwise, which then chooses it from its λ² path.
	emptyOK func() bool
}

// shortHintRunes is the longest hint shown under a field: a form's hints never wrap, so
// a longer one widened the run panel, and the window with it, past a 1024-pixel screen.
const shortHintRunes = 28

// newParam makes a field. hint is the whole explanation; the part before its first
// "; " (cut to shortHintRunes) is shown under the field, the whole of it in the panel's
// help line while the field has the focus.
func newParam(key, label, hint, def string, isFloat bool, min float64, algos ...string) *param {
	p := &param{key: key, label: label, hint: hint, algos: algos, isFloat: isFloat, min: min}
	p.entry = newHintEntry()
	p.entry.SetText(def)
	p.entry.Validator = p.validate
	p.item = widget.NewFormItem(label, p.entry)
	p.item.HintText = shortHint(hint)
	return p
}

// shortHint is the part of hint shown under its field.
func shortHint(hint string) string {
	short, _, _ := strings.Cut(hint, "; ")
	if r := []rune(short); len(r) > shortHintRunes {
		short = string(r[:shortHintRunes-1]) + "…"
	}
	return short
}

// onFocus sets what the field does when it gets the focus: show its whole hint.
func (p *param) onFocus(show func(text string)) {
	p.entry.focused = func() { show(p.label + ": " + p.hint + ".") }
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

// FocusGained is the entry's, then tells the panel.
func (e *hintEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.focused != nil {
		e.focused()
	}
}

func (p *param) appliesTo(algo string) bool {
	for _, a := range p.algos {
		if a == algo {
			return true
		}
	}
	return false
}

// validate checks the text and says what is wrong in the parameter's own name.
func (p *param) validate(s string) error {
	s = strings.TrimSpace(s)
	if s == "" && p.emptyOK != nil && p.emptyOK() {
		return nil
	}
	if p.isFloat {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v != v {
			return fmt.Errorf("%s must be a number, got %q", p.key, s)
		}
		if v < p.min {
			return fmt.Errorf("%s must be ≥ %g, got %g", p.key, p.min, v)
		}
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%s must be a whole number, got %q", p.key, s)
	}
	if float64(v) < p.min {
		return fmt.Errorf("%s must be ≥ %g, got %d", p.key, p.min, v)
	}
	return nil
}

// intFor is the field's whole number for algo, or 0 (the option's default) when algo
// does not use the field: a hidden field still holds what another algorithm was given,
// and that is neither validated nor meant for this one.
func (p *param) intFor(algo string) int {
	if !p.appliesTo(algo) {
		return 0
	}
	v, _ := strconv.Atoi(strings.TrimSpace(p.entry.Text))
	return v
}

// floatFor is intFor for a real-valued field.
func (p *param) floatFor(algo string) float64 {
	if !p.appliesTo(algo) {
		return 0
	}
	v, _ := strconv.ParseFloat(strings.TrimSpace(p.entry.Text), 64)
	return v
}

// prefKey is where a parameter's value is remembered, per algorithm.
func prefKey(algo, key string) string { return "param." + algo + "." + key }

func (p *param) load(prefs fyne.Preferences, algo string) {
	v := prefs.String(prefKey(algo, p.key))
	if v == "" && p.emptyOK != nil && p.emptyOK() {
		p.entry.SetText("") // empty is a choice here, and the default
		return
	}
	if v != "" && p.validate(v) == nil {
		p.entry.SetText(v)
	}
}

func (p *param) save(prefs fyne.Preferences, algo string) {
	prefs.SetString(prefKey(algo, p.key), strings.TrimSpace(p.entry.Text))
}

// paramSet is the fields of a form; each applies to some of its algorithms (or methods).
type paramSet []*param

// save remembers the values of the fields algo uses, under the preference name prefName.
func (ps paramSet) save(prefs fyne.Preferences, algo, prefName string) {
	for _, q := range ps {
		if q.appliesTo(algo) {
			q.save(prefs, prefName)
		}
	}
}

// load fills in the values remembered under prefName for the fields algo uses and
// returns their form items.
func (ps paramSet) load(prefs fyne.Preferences, algo, prefName string) []*widget.FormItem {
	var items []*widget.FormItem
	for _, q := range ps {
		if q.appliesTo(algo) {
			q.load(prefs, prefName)
			items = append(items, q.item)
		}
	}
	return items
}

// firstInvalid is the error of the first field algo uses whose text is not valid.
func (ps paramSet) firstInvalid(algo string) error {
	for _, q := range ps {
		if q.appliesTo(algo) {
			if err := q.validate(q.entry.Text); err != nil {
				return err
			}
		}
	}
	return nil
}
