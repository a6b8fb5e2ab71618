package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/harness/campaign"
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

// TestBadInputExitsOne: one rule for bad input (docs/exit-status.md).
// The same truncated, binary or duplicate-seq trace, or an unknown kind
// under --strict, exits 1 from every command that reads a trace, with an
// error naming the file (and the line, when there is one), and nothing on
// stdout but what a streaming command (persist, watch) wrote for the
// events before the error. A missing file is a setup error (2) instead:
// TestMissingFileExitsTwo.
func TestBadInputExitsOne(t *testing.T) {
	dir := t.TempDir()
	inputs := []struct {
		name, content, where string
	}{
		{"truncated.jsonl", `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}` + "\n" + `{"seq":2,"t":1,"kind":"te`, "truncated.jsonl:line 2: malformed JSON"},
		{"binary.bin", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\xff\xfe\x00", "binary.bin: cannot detect the format"},
		{"dupseq.jsonl", `{"seq":1,"t":0,"kind":"turn_end"}` + "\n" + `{"seq":1,"t":0,"kind":"turn_end"}` + "\n", `dupseq.jsonl:line 2: field "seq": must be strictly increasing`},
		{"kind.jsonl", `{"seq":1,"t":0,"kind":"tool_strat","id":"a"}` + "\n", `kind.jsonl:line 1: field "kind": unknown event kind "tool_strat"`},
	}
	commands := [][]string{
		{"replay"}, {"replay", "--check-reconstruct"}, {"play", "--plain"}, {"watch", "--plain"},
		{"import"}, {"redact"}, {"persist"}, {"check"}, {"shrink"}, {"view", "-o", "-"},
	}
	for _, in := range inputs {
		path := filepath.Join(dir, in.name)
		if err := os.WriteFile(path, []byte(in.content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range commands {
			args, where := append(slices.Clone(cmd), path), strings.Replace(in.where, in.name, path, 1)
			if cmd[0] == "watch" { // stdin only
				args, where = cmd, strings.Replace(in.where, in.name, "stdin", 1)
			}
			if in.name == "kind.jsonl" {
				args = append([]string{cmd[0], "--strict"}, args[1:]...)
			}
			t.Run(in.name+"/"+strings.Join(cmd, " "), func(t *testing.T) {
				var out, errOut bytes.Buffer
				c := &cli{stdin: strings.NewReader(in.content), stdout: &out, stderr: &errOut, open: osCLI().open}
				if code := c.run(args); code != exitFail {
					t.Errorf("%v: exit %d, want %d\nstderr: %s", args, code, exitFail, errOut.String())
				}
				if !strings.Contains(errOut.String(), where) {
					t.Errorf("%v: stderr does not name %q:\n%s", args, where, errOut.String())
				}
				if streams := cmd[0] == "persist" || cmd[0] == "watch"; !streams && out.Len() > 0 {
					t.Errorf("%v: wrote stdout: %.200s", args, out.String())
				}
			})
		}
	}
}

// TestMissingFileExitsTwo: a path that cannot be opened is a setup error
// (2) on every command that reads one, with an error naming it.
func TestMissingFileExitsTwo(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	for _, cmd := range [][]string{
		{"replay"}, {"replay", "--check-reconstruct"}, {"play", "--plain"}, {"import"}, {"redact"},
		{"persist"}, {"view", "-o", "-"}, {"reconstruct"}, {"check"}, {"shrink"},
	} {
		t.Run(strings.Join(cmd, " "), func(t *testing.T) {
			var errOut bytes.Buffer
			c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errOut, open: osCLI().open}
			if code := c.run(append(slices.Clone(cmd), missing)); code != exitUsage {
				t.Errorf("exit %d, want %d (a setup error)\n%s", code, exitUsage, errOut.String())
			}
			if !strings.Contains(errOut.String(), missing) {
				t.Errorf("stderr does not name %s:\n%s", missing, errOut.String())
			}
		})
	}
}

// TestToolsimFaultExitsThree: a campaign that met toolsim's own fault
// exits 3 once its report is out, whatever it found, naming the fault;
// without one the exit status is the campaign's own.
func TestToolsimFaultExitsThree(t *testing.T) {
	for _, tt := range []struct {
		name string
		code int
		err  error
		want int
	}{
		{"toolsim's own fault, with findings", exitFail, &campaign.ToolsimError{Seed: 7, Detail: "toolsim's own fault (simulator), not the engine's: …"}, exitToolsim},
		{"toolsim's own fault, nothing else", exitOK, fmt.Errorf("run: %w", &campaign.ToolsimError{Seed: 7, Detail: "…"}), exitToolsim},
		{"no fault of toolsim's", exitFail, nil, exitFail},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			c := &cli{stdout: io.Discard, stderr: &errOut}
			if got := c.toolsimExit(tt.code, tt.err); got != tt.want {
				t.Errorf("exit %d, want %d", got, tt.want)
			}
			if tt.err != nil && !strings.Contains(errOut.String(), "seed 7") {
				t.Errorf("stderr %q does not name the fault", errOut.String())
			}
		})
	}
}
