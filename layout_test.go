package toolsim_test

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/toolsim/toolsim/"

// moduleImports lists the module packages the (non-test) Go files of dir
// import, module-relative ("event", "internal/jsonscan").
func moduleImports(t *testing.T, dir string) []string {
	t.Helper()
	p, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		t.Fatalf("reading the package in %s: %v", dir, err)
	}
	var out []string
	for _, imp := range p.Imports {
		if rel, ok := strings.CutPrefix(imp, module); ok {
			out = append(out, rel)
		}
	}
	return out
}

// under reports whether pkg is root or a package under it.
func under(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }

// TestLayout keeps the architecture of docs/guide.md's Layout: the flow is
// event → engine → timeline → render, sim and formats produce events, the
// harness drives engines; an engine never imports sim, harness or formats;
// importers never import each other.
func TestLayout(t *testing.T) {
	tests := []struct {
		pkg   string
		allow func(imp string) bool // the module imports pkg may have
	}{
		{"event", func(imp string) bool { return under(imp, "internal") }},
		{"timeline", func(imp string) bool { return under(imp, "internal") || imp == "event" }},
		{"engine", func(imp string) bool { return under(imp, "internal") || imp == "event" || imp == "timeline" }},
		{"render", func(imp string) bool { return under(imp, "internal") || imp == "timeline" || imp == "event" }},
		{"oracle", func(imp string) bool { return imp == "event" || imp == "timeline" }},
		{"tui", func(imp string) bool { return !under(imp, "harness") && !under(imp, "sim") }},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			for _, imp := range moduleImports(t, tt.pkg) {
				if !tt.allow(imp) {
					t.Errorf("%s imports %s, which the Layout (docs/guide.md) rules out", tt.pkg, imp)
				}
			}
		})
	}
}

// TestImportersStayApart: no importer (formats/NAME) imports another; they
// share code only through formats/internal and importer.
func TestImportersStayApart(t *testing.T) {
	entries, err := os.ReadDir("formats")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "internal" && e.Name() != "testdata" {
			names = append(names, e.Name())
		}
	}
	if len(names) < 10 {
		t.Fatalf("found %d importers under formats/, want at least 10: %v", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			for _, imp := range moduleImports(t, filepath.Join("formats", name)) {
				if other, ok := strings.CutPrefix(imp, "formats/"); ok && !under(other, "internal") && other != name {
					t.Errorf("formats/%s imports %s: importers never import each other", name, imp)
				}
				if imp == "formats" || slices.Contains([]string{"sim", "harness"}, imp) {
					t.Errorf("formats/%s imports %s", name, imp)
				}
			}
		})
	}
}

// floors reads docs/floors.md: each package line "- `PATH` N: what".
func floors(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("docs", "floors.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "- `")
		if !ok {
			continue
		}
		pkg, rest, ok := strings.Cut(rest, "` ")
		num, _, ok2 := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok || !ok2 || err != nil {
			t.Fatalf("docs/floors.md:%d: want \"- `PATH` N: what\", got %q", i+1, line)
		}
		out[pkg] = n
	}
	return out
}

// modulePackages lists the module's Go packages (module-relative, "." for
// the root), leaving out testdata, node_modules and nested modules.
func modulePackages(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
			return filepath.SkipDir
		}
		if _, err := build.Default.ImportDir(path, 0); err == nil {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFloors: no package imports one above its floor (docs/floors.md),
// internal/ holds only floor-0 utilities, and every package has a floor.
func TestFloors(t *testing.T) {
	fl := floors(t)
	pkgs := modulePackages(t)
	if len(pkgs) < 40 {
		t.Fatalf("found %d packages, want the whole module: %v", len(pkgs), pkgs)
	}
	for _, pkg := range pkgs {
		mine, ok := fl[pkg]
		if !ok {
			t.Errorf("%s has no floor: add its line to docs/floors.md", pkg)
			continue
		}
		if under(pkg, "internal") && mine != 0 {
			t.Errorf("%s is on floor %d: internal/ holds floor-0 utilities; move it under the package that uses it", pkg, mine)
		}
		for _, imp := range moduleImports(t, pkg) {
			if f, ok := fl[imp]; ok && f > mine {
				t.Errorf("%s (floor %d) imports %s (floor %d), which is above it", pkg, mine, imp, f)
			}
		}
	}
	for pkg := range fl {
		if !slices.Contains(pkgs, pkg) {
			t.Errorf("docs/floors.md names %s, which is not a package", pkg)
		}
	}
}
