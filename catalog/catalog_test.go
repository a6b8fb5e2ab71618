package catalog

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fakeToolsim stands in for the CLI: `replay [--width N] FILE` prints
// FILE, read in dir; a width under 10 is a usage error (2), a missing
// file a failure (1).
func fakeToolsim(dir string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "replay" {
		fmt.Fprintln(stderr, "fake toolsim: want replay")
		return 2
	}
	args = args[1:]
	if len(args) == 3 && args[0] == "--width" {
		if w, err := strconv.Atoi(args[1]); err != nil || w < 10 {
			fmt.Fprintln(stderr, "toolsim replay: --width must be at least 10")
			return 2
		}
	}
	name := args[len(args)-1]
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "toolsim replay: %v\n", err)
		return 1
	}
	stdout.Write(data)
	return 0
}

// TestCatalogReportsFailures runs scripts through the catalog's runner
// (testscript.RunT with toolsim in-process, in each script's directory)
// and checks each verdict line, the failing script's log and line, and
// the counts.
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
		"e-skip":         "skip 'not here'\n" + trace,
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
	res := runScripts(&out, files, golden, dir+string(filepath.Separator), fakeToolsim)
	if want := (Result{Passed: 1, Failed: 3, Skipped: 1}); res != want || res.OK() {
		t.Errorf("result %+v (OK %v), want %+v, not OK", res, res.OK(), want)
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
		"skip  e-skip: ",
		"5 scenarios: 1 passed, 3 failed, 1 skipped\n",
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

// TestWriteCatalog: the scenarios the filter matches are written with
// their exec lines rewritten, and the goldens they refer to beside them.
func TestWriteCatalog(t *testing.T) {
	dir := t.TempDir()
	files, err := writeCatalog(dir, regexp.MustCompile(`^edge-user-turn$`))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || filepath.Base(files[0]) != "edge-user-turn.txtar" {
		t.Fatalf("files %q, want edge-user-turn.txtar", files)
	}
	script, _ := os.ReadFile(files[0])
	if !strings.Contains(string(script), "\n"+inProcessCmd+" replay") || execToolsim.Match(script[:bytes.Index(script, []byte("\n-- "))]) {
		t.Errorf("the script's exec lines are not rewritten:\n%s", script)
	}
	for _, m := range goldenRef.FindAllSubmatch(script, -1) {
		if _, err := os.Stat(filepath.Join(dir, "golden", string(m[1]))); err != nil {
			t.Errorf("golden %s not written: %v", m[1], err)
		}
	}
}

// TestRunMatchingNothing: a filter that matches no scenario runs none,
// and the run is not OK.
func TestRunMatchingNothing(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(&out, regexp.MustCompile(`^nothing-matches$`), fakeToolsim)
	if err != nil || res.OK() || out.String() != "0 scenarios: 0 passed, 0 failed\n" {
		t.Errorf("Run: %+v, %v, %q", res, err, out.String())
	}
}
