package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogReportsFailures runs scripts through the catalog's runner
// (testscript.RunT with toolsim in-process) and checks each verdict line,
// the failing script's log and line, and the exit status.
func TestCatalogReportsFailures(t *testing.T) {
	dir := t.TempDir()
	golden := filepath.Join(dir, "golden")
	os.Mkdir(golden, 0o755)
	os.WriteFile(filepath.Join(golden, "want.golden"), []byte("not what replay prints\n"), 0o644)
	const trace = "-- trace.jsonl --\n{\"trace\":\"toolsim/v1\"}\n{\"seq\":1,\"t\":0,\"kind\":\"text\",\"text\":\"hi\"}\n"
	scripts := map[string]string{
		"a-pass":         "exec toolsim replay trace.jsonl\nstdout 'hi'\n! exec toolsim replay missing.jsonl\nstderr 'missing.jsonl'\n" + trace,
		"b-golden-diff":  "# compares with a golden that differs\nexec toolsim replay trace.jsonl\ncmp stdout $GOLDEN/want.golden\n" + trace,
		"c-exit-status":  "exec toolsim replay --width 3 trace.jsonl\n" + trace,
		"d-unexpected-0": "! exec toolsim replay trace.jsonl\n" + trace,
	}
	var files []string
	for name, text := range scripts {
		path := filepath.Join(dir, "scenarios", name+".txtar")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, inProcess([]byte(text)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	var out bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &out, open: osCLI().open}
	if code := c.runScripts(files, golden, dir+string(filepath.Separator)); code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	got := out.String()
	for _, want := range []string{
		"ok    a-pass\n",
		"FAIL  b-golden-diff\n",
		"FAIL: scenarios/b-golden-diff.txtar:3: stdout and golden/want.golden differ",
		"reproduce: go test ./cmd/toolsim -run 'TestScenarios/^b-golden-diff$'\n",
		"FAIL: scenarios/c-exit-status.txtar:1: toolsim: exit status 2",
		"--width must be at least 10",
		"FAIL: scenarios/d-unexpected-0.txtar:1: toolsim succeeded, want failure",
		"4 scenarios: 1 passed, 3 failed\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, " \n") {
		t.Errorf("output has a line ending in a space:\n%s", got)
	}
	if strings.Contains(got, dir) {
		t.Errorf("output names the temporary directory %s:\n%s", dir, got)
	}
}

// TestInProcessRewritesOnlyTheScript checks that only the script's exec
// lines change, line for line, and not an archived file's text.
func TestInProcessRewritesOnlyTheScript(t *testing.T) {
	in := "# exec toolsim in a comment stays\nexec toolsim replay t\n! exec toolsim check t\n-- t --\nexec toolsim replay t\n"
	want := "# exec toolsim in a comment stays\n" + inProcessCmd + " replay t\n! " + inProcessCmd + " check t\n-- t --\nexec toolsim replay t\n"
	if got := string(inProcess([]byte(in))); got != want {
		t.Errorf("inProcess:\n got %q\nwant %q", got, want)
	}
}
