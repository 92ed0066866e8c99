// Command accuracytests prints the go test arguments of make unit's second pass: a -run
// pattern naming every test that is an accuracy check (one that calls accuracy.Check,
// itself or through a helper of its package), then the packages that hold them. The
// first pass, under the race detector, runs every other test and skips these; the second
// runs these alone, so that no test runs twice.
//
//	go test $(go run ./scripts/accuracytests)
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	tests, dirs, err := accuracyTests(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "accuracytests:", err)
		os.Exit(1)
	}
	if len(tests) == 0 {
		fmt.Fprintln(os.Stderr, "accuracytests: no test calls accuracy.Check")
		os.Exit(1)
	}
	fmt.Printf("-run ^(%s)$ %s\n", strings.Join(tests, "|"), strings.Join(dirs, " "))
}

// accuracyTests returns the names of the tests under root that are accuracy checks, and
// the packages (./dir) that hold them, each sorted.
func accuracyTests(root string) (tests, dirs []string, err error) {
	byDir := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		byDir[filepath.Dir(path)] = append(byDir[filepath.Dir(path)], f)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for dir, files := range byDir {
		found, err := checks(files)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", dir, err)
		}
		if len(found) == 0 {
			continue
		}
		dirs = append(dirs, "./"+filepath.ToSlash(dir))
		for _, name := range found {
			if !seen[name] {
				seen[name] = true
				tests = append(tests, name)
			}
		}
	}
	slices.Sort(tests)
	slices.Sort(dirs)
	return tests, dirs, nil
}

// checks returns the tests of one package's test files that call accuracy.Check, or a
// function of the package that does, however deep; a fuzz target among them runs its
// seeds in the second pass. A call it cannot follow — from a
// method, or from outside any function — is an error, not a test left out of both passes.
func checks(files []*ast.File) ([]string, error) {
	bodies := map[string]*ast.BlockStmt{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			switch {
			case ok && fn.Recv == nil && fn.Body != nil:
				bodies[fn.Name.Name] = fn.Body
			case ok && fn.Body != nil && reaches(fn.Body, nil):
				return nil, fmt.Errorf("the method %s calls accuracy.Check: call it from a function", fn.Name.Name)
			case !ok && reachesNode(decl, nil):
				return nil, fmt.Errorf("accuracy.Check is called outside any function")
			}
		}
	}
	calls := map[string]bool{} // the functions that reach accuracy.Check
	for changed := true; changed; {
		changed = false
		for name, body := range bodies {
			if !calls[name] && reaches(body, calls) {
				calls[name], changed = true, true
			}
		}
	}
	var out []string
	for name := range calls {
		if (strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Fuzz")) && name != "TestMain" {
			out = append(out, name)
		}
	}
	return out, nil
}

// reaches reports whether body calls accuracy.Check or one of the functions in calls.
func reaches(body *ast.BlockStmt, calls map[string]bool) bool { return reachesNode(body, calls) }

// reachesNode is reaches for any node.
func reachesNode(node ast.Node, calls map[string]bool) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		switch fn := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && x.Name == "accuracy" && fn.Sel.Name == "Check" {
				found = true
			}
		case *ast.Ident:
			found = calls[fn.Name]
		}
		return !found
	})
	return found
}
