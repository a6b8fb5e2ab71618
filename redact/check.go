package redact

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Finding is a line of a file that holds something redaction would
// replace. It names the rules that found it, never the secret.
type Finding struct {
	File  string   // the file's path, as Check was given or found it
	Line  int      // 1-based
	Rules []string // the rules' names ("npm-access-token", "email"), sorted
}

// String is FILE:LINE: RULE, RULE...
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %s", f.File, f.Line, strings.Join(f.Rules, ", "))
}

// Check looks for what redaction would replace in files, line by line, in
// any text format: a line that is valid JSON has its strings read
// unescaped (a secret behind \u escapes is found), any other line is read
// as it is. paths are files and directories (a directory: every regular
// file under it, in lexical order); all are listed before any is read.
// found is called with each finding, in file and line order, except for
// the rules ign accepts in that file. Check returns the number of files
// it read; it stops at the first error (a path that cannot be listed, a
// file that cannot be read, a line longer than 64 MiB), after reporting
// the findings before it.
func Check(paths []string, ign Ignore, found func(Finding)) (files int, err error) {
	var all []string
	for _, p := range paths {
		list, err := walkFiles(p)
		if err != nil {
			return 0, err
		}
		all = append(all, list...)
	}
	for _, f := range all {
		if err := checkFile(f, ign, found); err != nil {
			return 0, err
		}
	}
	return len(all), nil
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

// checkFile reports each line of one file that holds something to redact.
func checkFile(path string, ign Ignore, found func(Finding)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if rules := ign.filter(path, lineRules(sc.Bytes())); len(rules) > 0 {
			found(Finding{File: path, Line: n, Rules: rules})
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lineRules names the rules that would replace something in one line.
func lineRules(line []byte) []string {
	r := New()
	if json.Valid(line) {
		r.JSON(line)
	} else {
		r.String(string(line))
	}
	rules := make([]string, 0, len(r.Found))
	for k := range r.Found {
		rules = append(rules, k)
	}
	sort.Strings(rules)
	return rules
}
