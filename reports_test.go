package toolsim_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exactVersion is a pinned npm version: no range, tag or URL.
var exactVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// importsToolsim finds an import of toolsim in JavaScript or Go source
// (static, bare or dynamic import, require, a Go import or go.mod line),
// or a relative import that leaves the report's folder.
var importsToolsim = regexp.MustCompile(`((from|import)\s*\(?\s*['"][^'"]*toolsim|require\(\s*['"][^'"]*toolsim|github\.com/toolsim/toolsim|(from|import|require)\s*\(?\s*['"]\.\./)`)

// TestReportsStandalone: each standalone repro under docs/findings/reports/
// has its REPORT.md (or, for one driven by run.sh, a README.md); one that
// runs with one command pins its library (package.json with exact
// versions, package-lock.json and a test script; or a go.mod) and imports
// nothing of toolsim. make reports runs them and checks each fails.
func TestReportsStandalone(t *testing.T) {
	dirs, err := filepath.Glob("docs/findings/reports/*")
	if err != nil {
		t.Fatal(err)
	}
	runnable := 0
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, pkgErr := os.Stat(filepath.Join(dir, "package.json"))
			_, modErr := os.Stat(filepath.Join(dir, "go.mod"))
			if pkgErr != nil && modErr != nil {
				if !exists(dir, "README.md") || !exists(dir, "run.sh") {
					t.Errorf("%s: neither package.json nor go.mod, so a README.md and run.sh are needed", dir)
				}
				return
			}
			runnable++
			if !exists(dir, "REPORT.md") {
				t.Errorf("%s: no REPORT.md", dir)
			}
			if pkgErr == nil {
				checkPackage(t, dir)
			}
			checkNoToolsim(t, dir)
		})
	}
	if runnable == 0 {
		t.Error("no runnable report under docs/findings/reports/: make reports would check nothing")
	}
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// checkPackage checks a report's package.json: a test script, exact
// versions, and a lock file.
func checkPackage(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "package.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Scripts         map[string]string
		Dependencies    map[string]string
		DevDependencies map[string]string
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if pkg.Scripts["test"] == "" {
		t.Errorf("%s: no scripts.test: npm test would run nothing", path)
	}
	for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for name, v := range deps {
			if !exactVersion.MatchString(v) {
				t.Errorf("%s: %s is %q, not pinned to one version", path, name, v)
			}
		}
	}
	if !exists(dir, "package-lock.json") {
		t.Errorf("%s: no package-lock.json: npm ci needs it", dir)
	}
}

// checkNoToolsim fails when a source file of the report imports toolsim.
func checkNoToolsim(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		switch filepath.Ext(path) {
		case ".js", ".mjs", ".cjs", ".ts", ".go", ".mod":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if m := importsToolsim.Find(data); m != nil {
			t.Errorf("%s imports toolsim or a file outside its folder (%s): a report must stand alone", path, strings.TrimSpace(string(m)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
