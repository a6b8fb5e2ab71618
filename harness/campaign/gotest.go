package campaign

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// GoTest is the go test command line that reruns the test named test (a
// subtest path, as testing.T.Name gives it) with flags, run from the root
// of the module the working directory is in: the package comes first, as
// go test hands every argument after the first flag it does not know
// (-toolsim.seed) to the test binary, a package path included.
func GoTest(test string, flags ...string) string {
	var run []string
	for _, part := range strings.Split(test, "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	args := append([]string{"go test", packagePath(), "-run", "'" + strings.Join(run, "/") + "'"}, flags...)
	return strings.Join(args, " ")
}

// packagePath is the working directory as a package pattern relative to
// its module's root ("./adapter"), "." when it is the root or none is
// found.
func packagePath() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}
