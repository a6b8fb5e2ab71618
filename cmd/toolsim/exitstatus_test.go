package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// statusRow is one row of docs/exit-status.md.
type statusRow struct {
	line             int
	command, status  string
	when, exampleRaw string
}

// readStatusTable parses the table of docs/exit-status.md.
func readStatusTable(t *testing.T) []statusRow {
	t.Helper()
	data, err := os.ReadFile("../../docs/exit-status.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []statusRow
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| command ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("docs/exit-status.md:%d: want 4 cells, got %d", i+1, len(cells))
		}
		rows = append(rows, statusRow{i + 1, cells[0], cells[1], cells[2], strings.Trim(cells[3], "`")})
	}
	return rows
}

// TestExitStatusTable checks docs/exit-status.md against the commands:
// every command has rows, every example command line exits as the table
// says, and every named test or script exists.
func TestExitStatusTable(t *testing.T) {
	rows := readStatusTable(t)
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.command] = true
	}
	for _, cmd := range commands() {
		if !seen[cmd.name] {
			t.Errorf("docs/exit-status.md has no row for %s", cmd.name)
		}
	}
	tests := testNames(t)
	t.Chdir("testdata/exit")
	for _, r := range rows {
		name := r.command + " " + r.status + " " + r.when
		t.Run(name, func(t *testing.T) {
			if !strings.HasPrefix(r.exampleRaw, "toolsim ") {
				if !tests[r.exampleRaw] {
					t.Errorf("docs/exit-status.md:%d: %q names no test function or script", r.line, r.exampleRaw)
				}
				return
			}
			want, err := strconv.Atoi(r.status)
			if err != nil {
				t.Fatalf("docs/exit-status.md:%d: a command line needs a numeric status, got %q", r.line, r.status)
			}
			args, stdin := splitExample(t, r.exampleRaw)
			var out, errOut bytes.Buffer
			c := &cli{stdin: stdin, stdout: &out, stderr: &errOut, open: osCLI().open}
			if code := c.run(args); code != want {
				t.Errorf("docs/exit-status.md:%d: %s: exit %d, want %d\nstdout: %.500s\nstderr: %.500s", r.line, r.exampleRaw, code, want, out.String(), errOut.String())
			}
		})
	}
}

// splitExample turns "toolsim a b < FILE" into arguments and stdin.
func splitExample(t *testing.T, ex string) ([]string, *bytes.Reader) {
	t.Helper()
	cmdline, file, redirected := strings.Cut(strings.TrimPrefix(ex, "toolsim "), " < ")
	var stdin []byte
	if redirected {
		var err error
		if stdin, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Fields(cmdline), bytes.NewReader(stdin)
}

// testNames lists the test functions of cmd/toolsim and tui and the
// scripts of testdata/script.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	funcs := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	files, _ := filepath.Glob("*_test.go")
	more, _ := filepath.Glob("../../tui/*_test.go")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range funcs.FindAllSubmatch(data, -1) {
			names[string(m[1])] = true
		}
	}
	scripts, _ := filepath.Glob("testdata/script/*.txtar")
	for _, s := range scripts {
		names[filepath.Base(s)] = true
	}
	return names
}
