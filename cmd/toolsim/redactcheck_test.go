package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/redact"
)

// TestRepositoryHasNothingToRedact: redact --check passes over the
// repository's scenarios and goldens, and the shared real traces when they
// are beside it, with the repository's ignore file (planted fixtures, the
// published home paths of public captures).
func TestRepositoryHasNothingToRedact(t *testing.T) {
	t.Chdir("../..")
	args := []string{"redact", "--check", "scenarios", "golden"}
	if _, err := os.Stat("../shared/traces"); err == nil {
		args = append(args, "../shared/traces")
	} else {
		t.Log("../shared/traces not found: checking the repository's own files only")
	}
	c, out, errOut := testCLI(nil)
	if code := c.run(args); code != exitOK {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitOK, out, errOut)
	}
}

// TestRedactCheckNamesFileLineRule: a planted secret makes --check exit 1
// and name the file, the line and the rule, never the secret; without an
// ignore line for it, and with one, the check passes.
func TestRedactCheckNamesFileLineRule(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	secret := "npm_" + strings.Repeat("a1b2c3d4e5f6", 3)
	os.MkdirAll("traces", 0o755)
	os.WriteFile(filepath.Join("traces", "t.jsonl"), []byte(`{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`+"\n"+
		`{"seq":2,"t":1,"kind":"text","text":"token `+secret+`"}`+"\n"), 0o644)
	c, out, _ := testCLI(nil)
	if code := c.run([]string{"redact", "--check", "traces"}); code != exitFail {
		t.Fatalf("exit %d, want %d\n%s", code, exitFail, out)
	}
	if !strings.Contains(out.String(), "traces/t.jsonl:2: npm-access-token\n") || strings.Contains(out.String(), secret) {
		t.Errorf("want file, line and rule, and no secret:\n%s", out)
	}
	os.WriteFile(redact.IgnoreFile, []byte("# known\ntraces/*.jsonl npm-access-token\n"), 0o644)
	c, out, _ = testCLI(nil)
	if code := c.run([]string{"redact", "--check", "traces"}); code != exitOK {
		t.Errorf("with the ignore line: exit %d, want %d\n%s", code, exitOK, out)
	}
	os.WriteFile("bad-ignore", []byte("traces/*.jsonl\n"), 0o644)
	c, _, errOut := testCLI(nil)
	if code := c.run([]string{"redact", "--check", "--ignore", "bad-ignore", "traces"}); code != exitUsage || !strings.Contains(errOut.String(), "bad-ignore:1:") {
		t.Errorf("a bad ignore line: exit %d, %q", code, errOut)
	}
}
