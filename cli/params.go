package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"featurelab/algorithms"
)

// newFlagSet is a command's flag set: errors are returned, not exited on, and the help
// goes to stderr when asked for (-h); a parse error is the one line Run prints, without
// the flag package's own line and the help after it.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(&helpOutput{to: stderr})
	return fs
}

// helpOutput holds what the flag package prints while parsing, until parseInterspersed
// knows whether it was the help asked for.
type helpOutput struct {
	held bytes.Buffer
	to   io.Writer
}

func (h *helpOutput) Write(p []byte) (int, error) { return h.held.Write(p) }

// release writes what was held when the parse asked for help, and drops it otherwise.
func (h *helpOutput) release(err error) {
	if errors.Is(err, flag.ErrHelp) {
		h.to.Write(h.held.Bytes())
	}
	h.held.Reset()
}

// family is the parameters of one algorithm of a command, with its name for the help.
type family[O any] struct {
	name   string
	params algorithms.Params[O]
}

// paramFlags defines on fs one flag per parameter key of the families (the registry's
// descriptions: nothing here repeats a default, a range or a help text) and returns the
// map the texts given on the command line land in, by key. A key several families take
// is one flag; its help names the families when not all of them take it.
func paramFlags[O any](fs *flag.FlagSet, families []family[O]) map[string]string {
	given := map[string]string{}
	var keys []string
	byKey := map[string][]algorithms.Param[O]{}
	users := map[string][]string{}
	for _, f := range families {
		for _, p := range f.params {
			if _, ok := byKey[p.Key]; !ok {
				keys = append(keys, p.Key)
			}
			byKey[p.Key] = append(byKey[p.Key], p)
			users[p.Key] = append(users[p.Key], f.name)
		}
	}
	for _, key := range keys {
		ps := byKey[key]
		usage := ps[0].FlagUsage()
		var defaults []string
		for _, p := range ps {
			if !slices.Contains(defaults, p.Default) {
				defaults = append(defaults, p.Default)
			}
		}
		if len(defaults) == 1 && defaults[0] != "" {
			usage += " (default " + defaults[0] + ")"
		}
		if len(families) > 1 && len(users[key]) < len(families) {
			usage += " [" + strings.Join(users[key], ", ") + "]"
		}
		record := func(s string) error { given[key] = s; return nil }
		if ps[0].Type == algorithms.Bool {
			fs.BoolFunc(key, usage, record)
		} else {
			fs.Func(key, usage, record)
		}
	}
	// Aliases record under their own name; Params.Parse reads them for the parameter
	// that has them when its own flag is not given.
	for _, key := range keys {
		for _, p := range byKey[key] {
			if p.Alias != "" && fs.Lookup(p.Alias) == nil {
				alias := p.Alias
				fs.Func(alias, "the same as --"+key, func(s string) error { given[alias] = s; return nil })
			}
		}
	}
	return given
}

// parseFor reads the texts given into options for one family's parameters; a refusal
// names the algorithm it was refused for.
func parseFor[O any](ps algorithms.Params[O], given map[string]string, title string) (O, error) {
	o, err := ps.Parse(given)
	if err != nil {
		return o, fmt.Errorf("%s: %w", title, err)
	}
	return o, nil
}
