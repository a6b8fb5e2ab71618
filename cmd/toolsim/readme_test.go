package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeCommand is one command of README.md: a `$ toolsim …` line of a
// code block with the lines shown under it, or a line of an sh block.
type readmeCommand struct {
	line int      // where it is in README.md
	cmd  string   // without the "$ " and any trailing "# comment"
	want []string // what it prints, "..." standing for any lines (toolsim lines only)
}

// readmeCommands parses README.md's code blocks.
func readmeCommands(t *testing.T, readme string) []readmeCommand {
	t.Helper()
	var out []readmeCommand
	lang, in := "", false
	for i, line := range strings.Split(readme, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```"):
			in, lang = true, strings.TrimPrefix(trimmed, "```")
		case in && trimmed == "```":
			in = false
		case in && lang == "sh" && trimmed != "":
			cmd, _, _ := strings.Cut(trimmed, "  #")
			out = append(out, readmeCommand{line: i + 1, cmd: strings.TrimSpace(cmd)})
		case in && lang == "" && strings.HasPrefix(line, "$ "):
			out = append(out, readmeCommand{line: i + 1, cmd: strings.TrimPrefix(line, "$ ")})
		case in && lang == "" && len(out) > 0 && strings.HasPrefix(out[len(out)-1].cmd, "toolsim"):
			out[len(out)-1].want = append(out[len(out)-1].want, strings.TrimRight(line, " "))
		}
	}
	return out
}

// ranElsewhere are README's commands that are not toolsim's: each with a
// check that CI still runs it, or what it stands for.
var ranElsewhere = map[string]func(t *testing.T, root string){
	"go run ./cmd/toolsim": func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "README.md"), "\n$ toolsim\n") // its output is checked as `$ toolsim`
	},
	"make test": func(t *testing.T, root string) { mustContain(t, filepath.Join(root, ".ci/run"), "make test") },
	"go install ./cmd/toolsim": func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "cmd/toolsim/main.go"), "package main\n")
	},
	`make build && export PATH="$PWD/bin:$PATH"`: func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "Makefile"), "-o bin/toolsim ./cmd/toolsim")
	},
	"cd examples/adk && go test ./adapter -run '^TestADK$/^campaign$' -toolsim.seed=8": func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "examples/adk/adapter/adapter_test.go"), "func TestADK(")
		mustContain(t, filepath.Join(root, "harness/campaign/fuzz.go"), `flag.Int64("toolsim.seed"`)
		mustContain(t, filepath.Join(root, ".ci/run"), "make real-go-engine-adk") // its go test ./... runs every seed of the campaign
	},
	"make real-agent-claude": func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "Makefile"), "real-agent-%:")
		mustContain(t, filepath.Join(root, ".ci/run"), "make real-agents")
	},
	// the resume gate checks each kept regression of the resume oracle
	// this way (make real-agent-resume-codex, part of make real-agents)
	"bin/toolsim check --engine 'bin/toolsim-agent --agent codex --resume --session-log' --timeout 90s scenarios/codex/resume/by-hand-cancelled-call-gone-after-resume.jsonl": func(t *testing.T, root string) {
		mustContain(t, filepath.Join(root, "scenarios/codex/resume/by-hand-cancelled-call-gone-after-resume.jsonl"), `"kind":"cancel"`)
		mustContain(t, filepath.Join(root, "Makefile"), "ls scenarios/$*/resume/*.jsonl")
		mustContain(t, filepath.Join(root, "Makefile"), "--agent $* --resume --session-log")
		mustContain(t, filepath.Join(root, ".ci/run"), "make real-agents")
	},
}

func mustContain(t *testing.T, path, s string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(s)) {
		t.Errorf("%s no longer holds %q", path, s)
	}
}

// TestREADME runs README.md's commands, so that a stale command or output
// fails: each `$ toolsim …` line runs in-process, in order, in a temporary
// directory that links the repository's examples/ and scenarios/ (what it
// writes, such as failures/, stays there), and its standard output must
// match the lines shown under it, "..." standing for any run of lines
// (standard error, progress and diagnostics, is not compared). Every other
// command, an sh block's line, must be one ranElsewhere lists, with what
// shows CI still runs it.
func TestREADME(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"examples", "scenarios"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	cmds := readmeCommands(t, string(data))
	if len(cmds) < 8 {
		t.Fatalf("README.md: only %d commands found: update this test", len(cmds))
	}
	for _, c := range cmds {
		if !strings.HasPrefix(c.cmd, "toolsim") {
			check, ok := ranElsewhere[c.cmd]
			if !ok {
				t.Errorf("README.md:%d: %q is run by no test: run it here, or list in ranElsewhere where CI runs it", c.line, c.cmd)
				continue
			}
			check(t, root)
			continue
		}
		args := shellWords(strings.TrimPrefix(c.cmd, "toolsim"))
		var out, errOut bytes.Buffer
		cl := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, open: osCLI().open}
		cl.run(args)
		got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		if !linesMatch(c.want, got) {
			t.Errorf("README.md:%d: $ %s printed:\n%s\nwhich README shows as:\n%s\nstderr:\n%.800s", c.line, c.cmd,
				strings.Join(got, "\n"), strings.Join(c.want, "\n"), errOut.String())
		}
	}
}

// linesMatch reports whether got matches want, where a want line "..."
// matches any run of lines, the empty one included.
func linesMatch(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if linesMatch(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && linesMatch(want[1:], got[1:])
}

// TestLinesMatch pins the "..." rule TestREADME compares with.
func TestLinesMatch(t *testing.T) {
	for _, tt := range []struct {
		name      string
		want, got string
		match     bool
	}{
		{"equal", "a\nb", "a\nb", true},
		{"a line differs", "a\nb", "a\nc", false},
		{"... for none", "a\n...\nb", "a\nb", true},
		{"... for some", "a\n...\nd", "a\nb\nc\nd", true},
		{"... at the end", "a\n...", "a\nb", true},
		{"a line missing", "a\nb\nc", "a\nb", false},
		{"extra lines without ...", "a", "a\nb", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := linesMatch(strings.Split(tt.want, "\n"), strings.Split(tt.got, "\n")); got != tt.match {
				t.Errorf("linesMatch = %v, want %v", got, tt.match)
			}
		})
	}
}

// shellWords splits a command line into words as a shell does for the
// README's lines: at spaces, with '…' quoting.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
