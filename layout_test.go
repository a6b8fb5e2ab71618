package toolsim_test

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
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

// TestLayout keeps the architecture of README's Layout: the flow is
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
					t.Errorf("%s imports %s, which README's Layout rules out", tt.pkg, imp)
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
