package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolsim/toolsim/redact"
)

// redactCheck looks for what redaction would replace in files and
// directories, line by line, in any text format: a JSON line's strings are
// read unescaped, any other line as it is. It prints FILE:LINE: RULE for
// each finding (never the secret) and returns 1 when there is one.
func (c *cli) redactCheck(args []string, ignorePath string) int {
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "toolsim redact --check: want at least one FILE or DIR")
		return exitUsage
	}
	ign, err := readIgnore(ignorePath)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact --check: %v\n", err)
		return exitUsage
	}
	var files []string
	for _, a := range args {
		found, err := walkFiles(a)
		if err != nil {
			fmt.Fprintf(c.stderr, "toolsim redact --check: %v\n", err)
			return exitUsage
		}
		files = append(files, found...)
	}
	hits := 0
	for _, f := range files {
		n, err := c.checkFile(f, ign)
		if err != nil {
			fmt.Fprintf(c.stderr, "toolsim redact --check: %v\n", err)
			return exitUsage
		}
		hits += n
	}
	if hits > 0 {
		fmt.Fprintf(c.stdout, "%d lines hold something redaction would replace (toolsim redact FILE -o OUT rewrites a trace)\n", hits)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "ok: nothing to redact in %d files\n", len(files))
	return exitOK
}

// walkFiles lists a file, or every regular file under a directory in
// lexical order.
func walkFiles(root string) ([]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{root}, nil
	}
	var out []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// checkFile prints each line of one file that holds something to redact,
// and returns how many.
func (c *cli) checkFile(path string, ign ignores) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	hits := 0
	for n := 1; sc.Scan(); n++ {
		if kinds := ign.filter(path, lineKinds(sc.Bytes())); len(kinds) > 0 {
			hits++
			fmt.Fprintf(c.stdout, "%s:%d: %s\n", path, n, strings.Join(kinds, ", "))
		}
	}
	if err := sc.Err(); err != nil {
		return hits, fmt.Errorf("%s: %w", path, err)
	}
	return hits, nil
}

// lineKinds names the rules that would replace something in one line.
func lineKinds(line []byte) []string {
	r := redact.New()
	if json.Valid(line) {
		r.JSON(line)
	} else {
		r.String(string(line))
	}
	kinds := make([]string, 0, len(r.Found))
	for k := range r.Found {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// defaultIgnore is the ignore file redact --check reads when it exists.
const defaultIgnore = ".toolsim-redact-ignore"

// ignores are the lines of an ignore file: files, and the rules whose
// findings in them are accepted.
type ignores []ignoreLine

type ignoreLine struct {
	glob  string
	rules []string // "*" for every rule
}

// readIgnore reads an ignore file; the default one may be missing.
func readIgnore(path string) (ignores, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) && path == defaultIgnore {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--ignore: %w", err)
	}
	var out ignores
	for n, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if _, err := filepath.Match(f[0], ""); err != nil || len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: want GLOB RULE... (a valid glob and at least one rule, * for all)", path, n+1)
		}
		out = append(out, ignoreLine{f[0], f[1:]})
	}
	return out, nil
}

// filter drops the rules the ignore lines accept in path.
func (ig ignores) filter(path string, kinds []string) []string {
	out := kinds[:0]
	for _, k := range kinds {
		if !ig.accepts(path, k) {
			out = append(out, k)
		}
	}
	return out
}

func (ig ignores) accepts(path, kind string) bool {
	for _, l := range ig {
		if ok, _ := filepath.Match(l.glob, filepath.ToSlash(path)); !ok {
			continue
		}
		for _, r := range l.rules {
			if r == "*" || r == kind {
				return true
			}
		}
	}
	return false
}
