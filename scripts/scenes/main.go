// Command scenes writes the scene folders of internal/scenes (a real photo, objects that
// come and go, exposure, jitter, JPEG) and, given a featurelab binary, runs it on each
// with the defaults and says how each object was found:
//
//	go run ./scripts/scenes -out /tmp/scenes -bin bin/featurelab [-others] [-random 16] [-light 6] [-kind all] [-exposure 0.2] [-n 2000] [-args "--algo ibp"]
//
// Each folder ends with whether it reads right (K = its objects + 1, every object a
// feature owned by the pictures that show it, on ≥ 98 % of them, captioned "adds"), and
// the run with a table of them (a row a kind with -kind).
//
// -random N writes, instead, N folders drawn by scenes.Random from seeds 101, 102, …: folders
// no rule was tuned on. -light N writes N folders drawn by scenes.RandomLight from seeds
// 201, 202, …: a lamp's light, which adds to the scene, beside a shadow, which takes away.
// -kind K writes folders of one kind of scenes.RandomKind (or all of them) from seeds 301, …
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"featurelab/internal/scenes"
)

func main() {
	out := flag.String("out", "/tmp/featurelab-scenes", "where to write the folders")
	data := flag.String("data", "../shared/data", "the shared data folder")
	bin := flag.String("bin", "", "a featurelab binary to run on each folder (none: only write them)")
	extra := flag.String("args", "", "more analyze flags, space-separated")
	others := flag.Bool("others", false, "also the four folders kept apart as a check (scenes.Others)")
	n := flag.Int("n", 0, "pictures per folder (0: each folder's own)")
	random := flag.Int("random", 0, "write this many folders drawn at random (seeds 101, 102, …) instead")
	lights := flag.Int("light", 0, "write this many folders with a lamp's light in place of the stripes, drawn at random (seeds 201, 202, …) instead")
	exposure := flag.Float64("exposure", 0, "each picture's gain within ±this (0: each folder's own, ±5 %)")
	kind := flag.String("kind", "", "write folders of this kind drawn at random (seeds 301, 302, …; -random N of them, 6 by default): "+strings.Join(scenes.Kinds, ", ")+", or all")
	flag.Parse()
	specs := scenes.Sets(*data)
	if *others {
		specs = append(specs, scenes.Others(*data)...)
	}
	var kinds []string  // per folder, its kind, when drawn by kind
	var chosen []string // the kinds drawn, in order
	switch {
	case *kind != "":
		count := *random
		if count == 0 {
			count = 6
		}
		chosen = []string{*kind}
		if *kind == "all" {
			chosen = scenes.Kinds
		}
		specs = nil
		for _, k := range chosen {
			specs = append(specs, drawn(*data, count, 301, func(d string, seed uint64) (scenes.Spec, error) { return scenes.RandomKind(d, seed, k) })...)
			for range count {
				kinds = append(kinds, k)
			}
		}
	case *random > 0:
		specs = drawn(*data, *random, 101, scenes.Random)
	case *lights > 0:
		specs = drawn(*data, *lights, 201, scenes.RandomLight)
	}
	totals := map[string][]tally{}
	drawnOf := map[string]int{} // folders of each kind written so far
	if chosen == nil {
		chosen = []string{"folders"} // one table row for all
	}
	defer func() {
		if *bin == "" {
			return // nothing was read
		}
		for _, k := range chosen {
			var kRight, right, found, asIs, objects int
			for _, r := range totals[k] {
				if r.kRight {
					kRight++
				}
				if r.right {
					right++
				}
				found += r.found
				asIs += r.asIs
				objects += r.objects
			}
			fmt.Printf("%-10s read right in %d of %d folders (K right in %d); objects found %d of %d, as is on ≥ 98 %% of the pictures %d\n",
				k, right, len(totals[k]), kRight, found, objects, asIs)
		}
	}()
	for i, spec := range specs {
		if *n > 0 {
			spec.N = *n
		}
		if *exposure > 0 {
			spec.Exposure = *exposure
		}
		name := fmt.Sprintf("set%d", i+1)
		if kinds != nil {
			drawnOf[kinds[i]]++
			name = fmt.Sprintf("%s%d", kinds[i], drawnOf[kinds[i]])
		}
		dir := filepath.Join(*out, name)
		// A folder of the same name from an earlier run (another mode, other seeds, more
		// pictures) would leave its pictures among these: it goes first, with its outputs.
		for _, d := range []string{dir, dir + "-out"} {
			if err := os.RemoveAll(d); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		f, err := scenes.Write(dir, spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d pictures, objects %v\n", dir, len(f.Names), f.Objects)
		if *bin == "" {
			continue
		}
		args := append([]string{"analyze", dir, "--json", "--out", dir + "-out"}, strings.Fields(*extra)...)
		var stdout bytes.Buffer
		cmd := exec.Command(*bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var s struct {
			K          int      `json:"k"`
			Codes      []string `json:"codes"`
			Names      []string `json:"names"`
			PerFeature []struct {
				Effect string `json:"effect"`
			} `json:"per_feature"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		byName := map[string][]bool{}
		for n, name := range s.Names {
			code := make([]bool, len(s.Codes[n]))
			for j, c := range s.Codes[n] {
				code[j] = c == '1'
			}
			byName[name] = code
		}
		learned := make([][]bool, len(f.Names))
		for n, name := range f.Names {
			learned[n] = byName[name]
		}
		fmt.Printf("  K = %d\n", s.K)
		found, asIs, adds := 0, 0, 0
		matches := scenes.MatchObjects(f.Codes, learned)
		for _, m := range matches {
			if m.Agreement >= 0.95 {
				found++
			}
			if m.Agreement >= 0.98 && !m.Complement {
				asIs++
				if m.Feature < len(s.PerFeature) && s.PerFeature[m.Feature].Effect == "adds" {
					adds++
				}
			}
		}
		row := tally{kRight: s.K == len(f.Objects)+1, found: found, asIs: asIs, objects: len(f.Objects)}
		row.right = row.kRight && adds == len(f.Objects)
		group := chosen[0]
		if kinds != nil {
			group = kinds[i]
		}
		totals[group] = append(totals[group], row)
		fmt.Printf("  read right: %v (K = objects + 1 %v; %d of %d objects as is on ≥ 98 %% of the pictures and captioned \"adds\")\n",
			row.right, row.kRight, adds, len(f.Objects))
		for j, m := range matches {
			present := 0
			for n := range f.Codes {
				if f.Codes[n][j] {
					present++
				}
			}
			fmt.Printf("  %-22s in %3.0f%%: feature #%d%s agrees on %.1f%%\n", f.Objects[j],
				100*float64(present)/float64(len(f.Codes)), m.Feature+1, map[bool]string{true: " (complement)"}[m.Complement], 100*m.Agreement)
		}
	}
}

// drawn is count folders drawn by draw from seeds first, first + 1, …; it exits on the
// first that cannot be drawn.
func drawn(data string, count int, first uint64, draw func(string, uint64) (scenes.Spec, error)) []scenes.Spec {
	var specs []scenes.Spec
	for i := range count {
		spec, err := draw(data, first+uint64(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		specs = append(specs, spec)
	}
	return specs
}

// tally is how a folder was read: K = its objects + 1 (the base), its objects found
// (agreement ≥ 95 %) and found as is (the feature owned by the pictures that show the
// object, on ≥ 98 % of them), and whether it reads right: K so, and every object as is
// and captioned "adds".
type tally struct {
	kRight, right        bool
	found, asIs, objects int
}
