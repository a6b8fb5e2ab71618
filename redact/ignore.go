package redact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// IgnoreFile is the ignore file a check reads by default, in the current
// directory; unlike any other, it may be missing.
const IgnoreFile = ".toolsim-redact-ignore"

// Ignore is what an ignore file accepts: findings that are known (planted
// fixtures, published paths) in the files it names. The zero value
// accepts nothing.
type Ignore struct {
	lines []ignoreLine
}

// ignoreLine is one line of an ignore file.
type ignoreLine struct {
	glob  string
	rules []string // "*" for every rule
}

// ReadIgnore reads an ignore file of `GLOB RULE...` lines: the files
// whose slash-separated path (as Check names them) GLOB matches, in the
// syntax of filepath.Match, may hold what those rules (* for all) find; #
// starts a comment. A missing IgnoreFile is an empty Ignore. An error
// reading the file is the *fs.PathError of os.ReadFile; a malformed line
// is an error naming PATH:LINE.
func ReadIgnore(path string) (Ignore, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) && path == IgnoreFile {
		return Ignore{}, nil
	}
	if err != nil {
		return Ignore{}, err
	}
	var out Ignore
	for n, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if _, err := filepath.Match(f[0], ""); err != nil || len(f) < 2 {
			return Ignore{}, fmt.Errorf("%s:%d: want GLOB RULE... (a valid glob and at least one rule, * for all)", path, n+1)
		}
		out.lines = append(out.lines, ignoreLine{f[0], f[1:]})
	}
	return out, nil
}

// filter drops the rules ig accepts in path.
func (ig Ignore) filter(path string, rules []string) []string {
	out := rules[:0]
	for _, r := range rules {
		if !ig.accepts(path, r) {
			out = append(out, r)
		}
	}
	return out
}

// accepts reports whether a line of ig accepts rule in path.
func (ig Ignore) accepts(path, rule string) bool {
	for _, l := range ig.lines {
		if ok, _ := filepath.Match(l.glob, filepath.ToSlash(path)); !ok {
			continue
		}
		for _, r := range l.rules {
			if r == "*" || r == rule {
				return true
			}
		}
	}
	return false
}
