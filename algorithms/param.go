package algorithms

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Type is the kind of value a parameter holds, and so the field it writes: *int, *float64,
// *uint64, *bool or *string.
type Type int

// The parameter types.
const (
	Int    Type = iota // a whole number, an int field
	Float              // a real number, a float64 field
	Uint               // a non-negative whole number of 64 bits (seeds), a uint64 field
	Bool               // on or off, a bool field
	Choice             // one of Param.Choices, a string field
)

// Param describes one parameter of an algorithm, once: the command line's flag, the
// window's field, their help, the default both start from and the check that refuses a
// bad value are all made from it (as scikit-learn's estimators declare their
// _parameter_constraints and gonum/optimize's methods their needs). O is the options
// struct the value goes to: learn.Options, segment.Options or cosegment.Options.
type Param[O any] struct {
	Key   string // the flag's name and the preference key: "k", "lambda2", "edge-cost"
	Label string // the form's label: "K", "λ²"
	Hint  string // one line: under the field and in the flag's help
	Help  string // the whole explanation, shown while the field has the focus
	Type  Type
	// Default is the value as the user would type it; "" when the parameter starts
	// empty, which then means Auto.
	Default string
	// Auto, when set, says what an empty value (or 0) means — "chosen from the λ² path"
	// — and allows it below Min.
	Auto string
	// Min and Max bound a number; MinOpen and MaxOpen exclude the bound itself.
	Min, Max         float64
	MinOpen, MaxOpen bool
	// Choices are a Choice's values, the first the default unless Default says otherwise.
	Choices []string
	// Advanced parameters are tuned by few users: the window keeps them under "More".
	Advanced bool
	// Alias is a second flag name that sets this parameter when its own flag is not
	// given: the IBP's chains were --restarts before they had a flag of their own.
	Alias string
	// Machine parameters say how the work runs, not what it computes (the workers): a
	// saved analysis leaves them out.
	Machine bool
	// Field points at the field of o the value goes to: *int for Int, *float64 for
	// Float, *uint64 for Uint, *bool for Bool, *string for Choice.
	Field func(o *O) any
}

// Range says the values a number may take, as its messages and help write it:
// "in [1, 64]", "in (0, 1]", "≥ 0".
func (p Param[O]) Range() string {
	switch p.Type {
	case Bool:
		return "true or false"
	case Choice:
		return strings.Join(p.Choices, ", ")
	}
	lo, hi := "[", "]"
	if p.MinOpen {
		lo = "("
	}
	if p.MaxOpen {
		hi = ")"
	}
	return fmt.Sprintf("%s%s, %s%s", lo, formatBound(p.Min), formatBound(p.Max), hi)
}

func formatBound(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// what names the kind of value for a message: "a whole number", "a number".
func (p Param[O]) what() string {
	switch p.Type {
	case Int, Uint:
		return "a whole number"
	case Float:
		return "a number"
	case Bool:
		return "true or false"
	}
	return "one of"
}

// rangeError is the one line that refuses a value: "restarts must be a whole number in
// [1, 100000], got 0".
func (p Param[O]) rangeError(got string) error {
	if p.Type == Choice {
		return fmt.Errorf("%s must be one of %s, got %q", p.Key, p.Range(), got)
	}
	auto := ""
	if p.Auto != "" {
		auto = " (or empty: " + p.Auto + ")"
	}
	return fmt.Errorf("%s must be %s in %s%s, got %s", p.Key, p.what(), p.Range(), auto, got)
}

// inRange reports whether v lies within the bounds.
func (p Param[O]) inRange(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	if v < p.Min || (p.MinOpen && v == p.Min) {
		return false
	}
	return v < p.Max || (!p.MaxOpen && v == p.Max)
}

// Set parses text and writes it to o's field, or says in one line why it cannot: the
// command line's flags and the window's fields go through it. An empty text writes the
// zero value when the parameter has an Auto meaning.
func (p Param[O]) Set(o *O, text string) error {
	text = strings.TrimSpace(text)
	field := p.Field(o)
	if text == "" && p.Auto != "" {
		return p.setZero(field)
	}
	switch f := field.(type) {
	case *int:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil || !(v == 0 && p.Auto != "") && !p.inRange(float64(v)) {
			return p.rangeError(strconv.Quote(text))
		}
		*f = int(v)
	case *uint64:
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil || !p.inRange(float64(v)) {
			return p.rangeError(strconv.Quote(text))
		}
		*f = v
	case *float64:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || !(v == 0 && p.Auto != "") && !p.inRange(v) {
			return p.rangeError(strconv.Quote(text))
		}
		*f = v
	case *bool:
		v, err := strconv.ParseBool(text)
		if err != nil {
			return p.rangeError(strconv.Quote(text))
		}
		*f = v
	case *string:
		if !slices.Contains(p.Choices, text) {
			return p.rangeError(text)
		}
		*f = text
	default:
		return fmt.Errorf("%s: field of type %T", p.Key, field)
	}
	return nil
}

func (p Param[O]) setZero(field any) error {
	switch f := field.(type) {
	case *int:
		*f = 0
	case *uint64:
		*f = 0
	case *float64:
		*f = 0
	case *bool:
		*f = false
	case *string:
		*f = ""
	}
	return nil
}

// Text is o's value of the parameter as the user would type it ("" for an Auto zero).
func (p Param[O]) Text(o *O) string {
	switch f := p.Field(o).(type) {
	case *int:
		if *f == 0 && p.Auto != "" {
			return ""
		}
		return strconv.Itoa(*f)
	case *uint64:
		return strconv.FormatUint(*f, 10)
	case *float64:
		if *f == 0 && p.Auto != "" {
			return ""
		}
		return strconv.FormatFloat(*f, 'g', -1, 64)
	case *bool:
		return strconv.FormatBool(*f)
	case *string:
		return *f
	}
	return ""
}

// Check refuses o's value of the parameter when it is out of range — options built by a
// program or read from a saved analysis pass the same bounds as typed ones. A zero field
// passes, as an empty Choice does: the options' packages read it as their default.
func (p Param[O]) Check(o *O) error {
	switch f := p.Field(o).(type) {
	case *int:
		if *f != 0 && !p.inRange(float64(*f)) {
			return p.rangeError(strconv.Itoa(*f))
		}
	case *uint64:
		if !p.inRange(float64(*f)) {
			return p.rangeError(strconv.FormatUint(*f, 10))
		}
	case *float64:
		if *f != 0 && !p.inRange(*f) {
			return p.rangeError(strconv.FormatFloat(*f, 'g', -1, 64))
		}
	case *string:
		if *f != "" && !slices.Contains(p.Choices, *f) {
			return p.rangeError(*f)
		}
	}
	return nil
}

// FlagUsage is the parameter's line in a command's help: its hint, range and default.
func (p Param[O]) FlagUsage() string {
	s := p.Hint
	switch {
	case p.Type == Choice:
		s += ": " + strings.Join(p.Choices, "|")
	case p.Type != Bool:
		s += "; " + p.Range()
	}
	if p.Auto != "" {
		s += "; 0 or empty = " + p.Auto
	}
	return s
}

// Params is the parameters of one algorithm.
type Params[O any] []Param[O]

// Defaults is the options with every parameter at its default.
func (ps Params[O]) Defaults() O {
	var o O
	for _, p := range ps {
		// The registry's test checks every default parses.
		_ = p.Set(&o, p.Default)
	}
	return o
}

// Check refuses the first parameter of o out of its range.
func (ps Params[O]) Check(o O) error {
	for _, p := range ps {
		if err := p.Check(&o); err != nil {
			return err
		}
	}
	return nil
}

// Lookup is the parameter called key, and whether there is one.
func (ps Params[O]) Lookup(key string) (Param[O], bool) {
	for _, p := range ps {
		if p.Key == key {
			return p, true
		}
	}
	return Param[O]{}, false
}

// Parse is the options with every parameter at its default and then each text given set
// by its key — or by the parameter's Alias when its own key is not given. The command
// line's flags and the window's form both arrive here. A key given that no parameter
// takes is refused, naming the keys there are: a flag meant for another algorithm does
// nothing here, and silence would say it did.
func (ps Params[O]) Parse(given map[string]string) (O, error) {
	o := ps.Defaults()
	taken := map[string]bool{}
	for _, p := range ps {
		text, ok := given[p.Key]
		taken[p.Key] = true
		if !ok && p.Alias != "" {
			text, ok = given[p.Alias]
			taken[p.Alias] = true
		}
		if !ok {
			continue
		}
		if err := p.Set(&o, text); err != nil {
			return o, err
		}
	}
	var extra []string
	for key := range given {
		if !taken[key] {
			extra = append(extra, key)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		keys := make([]string, len(ps))
		for i, p := range ps {
			keys[i] = p.Key
		}
		return o, fmt.Errorf("%s: not a parameter here (it takes %s)", strings.Join(extra, ", "), strings.Join(keys, ", "))
	}
	return o, nil
}

// Field is a parameter as a form sees it, without its options type: what the window
// needs to draw, explain and check one field.
type Field struct {
	Key, Label, Hint, Help string
	Type                   Type
	Default, Auto          string
	Choices                []string
	Advanced               bool
	// Check says in one line why text would be refused, or nil.
	Check func(text string) error
}

// Fields is the parameters as a form sees them, in order.
func (ps Params[O]) Fields() []Field {
	fs := make([]Field, len(ps))
	for i, p := range ps {
		fs[i] = Field{Key: p.Key, Label: p.Label, Hint: p.Hint, Help: p.Help, Type: p.Type,
			Default: p.Default, Auto: p.Auto, Choices: p.Choices, Advanced: p.Advanced,
			Check: func(text string) error {
				var o O
				return p.Set(&o, text)
			}}
	}
	return fs
}
