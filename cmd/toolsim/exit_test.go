package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.jsonl", `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`+"\n"+`{"seq":2,"t":5,"kind":"tool_done","id":"zz","ok":true}`+"\n"+`{"seq":3,"t":9,"kind":"turn_end"}`+"\n")
	notTrace := write("notatrace.jsonl", "seed: 42\n")
	bad := write("bad.jsonl", `{"seq":1,"t":0,"kind":"turn_end"}`+"\n"+`{"seq":1,"t":0,"kind":"turn_end"}`+"\n")
	tests := []struct {
		name       string
		args       []string
		stdin      string
		code       int
		stdout     string
		stderr     string
		noStderrOK bool
	}{
		{"replay ok with diagnostics", []string{"replay", good}, "", exitOK, "── Turn complete ──", "seq 2: unknown_id id=zz", false},
		{"invalid trace", []string{"replay", bad}, "", exitFail, "", "bad.jsonl:line 2: field \"seq\": must be strictly increasing", false},
		{"missing file", []string{"replay", filepath.Join(dir, "nope.jsonl")}, "", exitUsage, "", "no such file", false},
		{"stdin", []string{"replay", "-"}, `{"seq":1,"t":0,"kind":"text","text":"hi"}`, exitOK, "│ ▸ hi", "", true},
		{"empty stdin", []string{"replay", "-"}, "", exitFail, "", "stdin: empty trace", false},
		{"json", []string{"replay", "--json", good}, "", exitOK, `"format": "toolsim-timeline/1"`, "", false},
		{"usage: no file", []string{"replay"}, "", exitUsage, "", "want exactly one FILE", false},
		{"usage: bad flag", []string{"replay", "--nope", good}, "", exitUsage, "", "unknown flag --nope", false},
		{"usage: unknown command", []string{"frobnicate"}, "", exitUsage, "", "unknown command", false},
		{"help", []string{"replay", "--help"}, "", exitOK, "usage: toolsim replay", "", true},
		{"fuzz: --seeds 0", []string{"fuzz", "--seeds", "0"}, "", exitUsage, "", "--seeds must be at least 1", false},
		{"sim: unknown fault", []string{"sim", "--faults", "order,bogus"}, "", exitUsage, "", `--faults: unknown fault "bogus" (known: all, none, order,`, false},
		{"fuzz: impossible shard", []string{"fuzz", "--shard", "3/2"}, "", exitUsage, "", "--shard 3/2: want 1 ≤ K ≤ N", false},
		{"fuzz: malformed shard", []string{"fuzz", "--shard", "two"}, "", exitUsage, "", `--shard "two": want K/N`, false},
		{"fuzz: exhaustive with seeds", []string{"fuzz", "--exhaustive", "--seeds", "9"}, "", exitUsage, "", "it takes no --seeds", false},
		{"fuzz: exhaustive guided", []string{"fuzz", "--exhaustive", "--guided"}, "", exitUsage, "", "it takes no --seeds, --duration, --shard or --guided", false},
		{"fuzz: guided", []string{"fuzz", "--guided", "--seeds", "120"}, "", exitOK, "guided: 97 of 120 scenarios were mutants of a corpus of", "", false},
		{"fuzz: exhaustive too big", []string{"fuzz", "--exhaustive", "--tools", "5"}, "", exitUsage, "", "--exhaustive takes --tools 1..4", false},
		{"fuzz: arguments", []string{"fuzz", "x.jsonl"}, "", exitUsage, "", "fuzz takes only flags", false},
		{"check: not a trace", []string{"check", notTrace}, "", exitFail, "", "notatrace.jsonl: cannot detect the format", false},
		{"check: invalid trace", []string{"check", bad}, "", exitFail, "", "bad.jsonl:line 2: field \"seq\": must be strictly increasing", false},
		{"check: missing file", []string{"check", filepath.Join(dir, "nope.jsonl")}, "", exitUsage, "", "no such file", false},
		{"check: passes", []string{"check", good}, "", exitOK, "ok    " + good, "", true},
		{"shrink: not a trace", []string{"shrink", notTrace}, "", exitFail, "", "notatrace.jsonl: cannot detect the format", false},
		{"shrink: missing file", []string{"shrink", filepath.Join(dir, "nope.jsonl")}, "", exitUsage, "", "no such file", false},
		{"shrink: bad --faults", []string{"shrink", "--faults", "bogus", good}, "", exitUsage, "", `--faults: unknown fault "bogus"`, false},
		{"shrink: unknown oracle", []string{"shrink", "--oracle", "bogus", good}, "", exitUsage, "", `unknown --oracle "bogus" (known: pairing, status,`, false},
		{"shrink: nothing to shrink", []string{"shrink", good}, "", exitFail, "", "passes every oracle: nothing to shrink", false},
		{"check: engine does not exist", []string{"check", "--engine", "/no/such/engine", good}, "", exitUsage, "", `engine "/no/such/engine": cannot start`, false},
		{"check: bad timeout", []string{"check", "--engine", "toolsim engine", "--timeout", "-1s", good}, "", exitUsage, "", "--timeout must be positive", false},
		{"engine: arguments", []string{"engine", "x"}, "", exitUsage, "", "takes no arguments", false},
		{"catalog filter matching nothing", []string{"catalog", "--run", "^nothing-matches$"}, "", exitFail, "0 scenarios", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			c := &cli{stdin: strings.NewReader(tt.stdin), stdout: &out, stderr: &errOut, open: osCLI().open}
			if code := c.run(tt.args); code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out.String())
			}
			if !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut.String())
			}
			if tt.noStderrOK && errOut.Len() > 0 {
				t.Errorf("unexpected stderr: %s", errOut.String())
			}
		})
	}
}

// TestNoEventsFailsEveryCommandAlike: a trace that imports to nothing (an
// empty file, a recording of notices only) is refused by every command
// that reads a trace with the same message and exit 1. A canonical header
// alone is a valid, empty trace (header-only.txtar): a failure can shrink
// to it.
func TestNoEventsFailsEveryCommandAlike(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string]string{
		"empty.jsonl":  "",
		"notices.json": `{"sessionId":"s1","messages":[{"id":"m1","type":"info","content":"Switched to gemini-2.5-flash"}]}`,
	}
	for name, content := range inputs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		var first string
		for _, args := range [][]string{{"import"}, {"check"}, {"replay"}, {"replay", "--check-reconstruct"}, {"persist"}} {
			var out, errOut bytes.Buffer
			c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, open: osCLI().open}
			code := c.run(append(args, p))
			if code != exitFail {
				t.Errorf("%s %v: exit %d, want %d\n%s", name, args, code, exitFail, errOut.String())
			}
			if out.Len() > 0 {
				t.Errorf("%s %v: wrote stdout: %s", name, args, out.String())
			}
			msg := errOut.String()
			msg = msg[strings.Index(msg, ": ")+2:] // without "toolsim CMD: "
			if !strings.Contains(msg, "nothing to replay or check") {
				t.Errorf("%s %v: stderr %q does not say there is nothing to replay", name, args, errOut.String())
			}
			if first == "" {
				first = msg
			} else if msg != first {
				t.Errorf("%s %v: message %q differs from import's %q", name, args, msg, first)
			}
		}
	}
}
