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
	hint    string
	entry   *widget.Entry
	algos   []string
	isFloat bool
	min     float64
	item    *widget.FormItem
}

func newParam(key, label, hint, def string, isFloat bool, min float64, algos ...string) *param {
	p := &param{key: key, label: label, hint: hint, algos: algos, isFloat: isFloat, min: min}
	p.entry = widget.NewEntry()
	p.entry.SetText(def)
	p.entry.Validator = p.validate
	p.item = widget.NewFormItem(label, p.entry)
	p.item.HintText = hint
	return p
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

func (p *param) intValue() int {
	v, _ := strconv.Atoi(strings.TrimSpace(p.entry.Text))
	return v
}

func (p *param) floatValue() float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(p.entry.Text), 64)
	return v
}

// prefKey is where a parameter's value is remembered, per algorithm.
func prefKey(algo, key string) string { return "param." + algo + "." + key }

func (p *param) load(prefs fyne.Preferences, algo string) {
	if v := prefs.String(prefKey(algo, p.key)); v != "" && p.validate(v) == nil {
		p.entry.SetText(v)
	}
}

func (p *param) save(prefs fyne.Preferences, algo string) {
	prefs.SetString(prefKey(algo, p.key), strings.TrimSpace(p.entry.Text))
}
