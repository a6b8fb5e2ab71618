package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolsim/toolsim"
)

// The catalog runs the embedded scenarios/*.txtar scripts in-process. It
// understands the subset of testscript the scenarios use (documented in
// scenarios/README.md): exec toolsim, cmp stdout|stderr FILE, cp stdout|
// stderr FILE, and the stdout/stderr regexp checks, each optionally negated
// with "!". The same
// scripts run under testscript in `make test`.

func (c *cli) catalog(args []string) int {
	fset := flag.NewFlagSet("catalog", flag.ContinueOnError)
	fset.SetOutput(c.stderr)
	run := fset.String("run", "", "only run scenarios whose name matches this regexp")
	fset.Usage = func() {
		fmt.Fprintln(fset.Output(), "usage: toolsim [catalog] [--run REGEXP]\n\nRuns every built-in scenario through the engine and renderer and compares\nthe output with its golden; prints one line per scenario.\n\nFlags:")
		printFlags(fset)
	}
	if err := parseFlags(fset, args); err != nil {
		return helpOrUsage(err)
	}
	filter, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: bad --run: %v\n", err)
		return exitUsage
	}
	return c.runCatalog(filter)
}

// runCatalog runs the embedded scenarios whose names match filter.
func (c *cli) runCatalog(filter *regexp.Regexp) int {
	entries, err := fs.ReadDir(toolsim.Scenarios, "scenarios")
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: %v\n", err)
		return exitFail
	}
	passed, failed := 0, 0
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txtar")
		if !filter.MatchString(name) {
			continue
		}
		data, _ := fs.ReadFile(toolsim.Scenarios, "scenarios/"+e.Name())
		if err := runScript(data); err != nil {
			failed++
			fmt.Fprintf(c.stdout, "FAIL  %s: %v\n      reproduce: go test ./cmd/toolsim -run 'TestScenarios/^%s$'\n", name, err, name)
			continue
		}
		passed++
		fmt.Fprintf(c.stdout, "ok    %s\n", name)
	}
	fmt.Fprintf(c.stdout, "%d scenarios: %d passed, %d failed\n", passed+failed, passed, failed)
	if failed > 0 || passed == 0 {
		return exitFail
	}
	return exitOK
}

// script is the state of one scenario run.
type script struct {
	files          map[string][]byte
	stdout, stderr string
}

func runScript(data []byte) error {
	ar := txtar.Parse(data)
	s := &script{files: map[string][]byte{}}
	for _, f := range ar.Files {
		s.files[f.Name] = f.Data
	}
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := s.step(line); err != nil {
			return fmt.Errorf("script line %d: %s: %w", i+1, line, err)
		}
	}
	return nil
}

// step runs one script line.
func (s *script) step(line string) error {
	neg := strings.HasPrefix(line, "! ")
	args := splitArgs(strings.TrimPrefix(line, "! "))
	switch {
	case len(args) >= 2 && args[0] == "exec" && args[1] == "toolsim":
		return s.exec(args[2:], neg)
	case len(args) == 3 && args[0] == "cmp" && !neg:
		return s.cmp(args[1], args[2])
	case len(args) == 2 && (args[0] == "stdout" || args[0] == "stderr"):
		return s.match(args[0], args[1], neg)
	case len(args) == 3 && args[0] == "cp" && !neg:
		text, err := s.stream(args[1])
		s.files[args[2]] = []byte(text)
		return err
	}
	return fmt.Errorf("not supported by the built-in catalog")
}

func (s *script) exec(args []string, neg bool) error {
	var out, errOut bytes.Buffer
	sub := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, open: s.open}
	code := sub.run(args)
	s.stdout, s.stderr = out.String(), errOut.String()
	switch {
	case neg && code == 0:
		return fmt.Errorf("succeeded, want failure")
	case !neg && code != 0:
		return fmt.Errorf("exit status %d: %s", code, strings.TrimSpace(s.stderr))
	}
	return nil
}

func (s *script) open(name string) (io.ReadCloser, error) {
	data, ok := s.files[name]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, os.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

func (s *script) cmp(stream, file string) error {
	got, err := s.stream(stream)
	if err != nil {
		return err
	}
	var want []byte
	if rest, ok := strings.CutPrefix(file, "$GOLDEN/"); ok {
		want, err = fs.ReadFile(toolsim.Golden, path.Join("golden", rest))
	} else if data, ok := s.files[file]; ok {
		want = data
	} else {
		err = fmt.Errorf("no file %s", file)
	}
	if err != nil {
		return err
	}
	if d := firstDiff(string(want), got); d != "" {
		return fmt.Errorf("%s differs from %s: %s", stream, file, d)
	}
	return nil
}

func (s *script) stream(name string) (string, error) {
	switch name {
	case "stdout":
		return s.stdout, nil
	case "stderr":
		return s.stderr, nil
	}
	return "", fmt.Errorf("unknown stream %q", name)
}

func (s *script) match(stream, pattern string, neg bool) error {
	text, _ := s.stream(stream)
	re, err := regexp.Compile("(?m)" + pattern)
	if err != nil {
		return err
	}
	if re.MatchString(text) == neg {
		if neg {
			return fmt.Errorf("%s matches %q:\n%s", stream, pattern, text)
		}
		return fmt.Errorf("%s does not match %q:\n%s", stream, pattern, text)
	}
	return nil
}

// firstDiff describes the first line where got differs from want.
func firstDiff(want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, w, g)
		}
	}
	return "trailing bytes differ"
}

// splitArgs splits a script line into words; 'single quotes' group words,
// with ” standing for a quote, as in testscript.
func splitArgs(line string) []string {
	var args []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quoted && ch == '\'' && i+1 < len(line) && line[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case ch == '\'':
			quoted, inWord = !quoted, true
		case !quoted && (ch == ' ' || ch == '\t'):
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}
