package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsQuoteTheRecipe: docs/ci.md shows the workflow and the shell
// script exactly as they are run.
func TestDocsQuoteTheRecipe(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"../toolsim.yml", "../ci.sh"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), string(data)) {
			t.Errorf("docs/ci.md does not quote %s as it is", f)
		}
	}
}

// TestRunnerConditions: matrix values are substituted, a failed step
// skips the next plain step but runs if: failure() and if: always()
// steps, and the run fails.
func TestRunnerConditions(t *testing.T) {
	dir := t.TempDir()
	wf := filepath.Join(dir, "wf.yml")
	os.WriteFile(wf, []byte(`env:
  GREETING: hello
jobs:
  one:
    strategy:
      matrix:
        n: [1, 2]
    steps:
      - run: echo "$GREETING ${{ matrix.n }}" > ../out-${{ matrix.n }}
      - run: test ${{ matrix.n }} = 1
      - run: touch ../skipped-${{ matrix.n }}
      - if: failure()
        run: touch ../failure-${{ matrix.n }}
      - if: always()
        run: touch ../always-${{ matrix.n }}
`), 0o644)
	out := filepath.Join(dir, "out")
	err := run(wf, sets{"GREETING": "hi"}, out)
	if err == nil || !strings.Contains(err.Error(), "1 job runs failed") {
		t.Fatalf("run: %v, want 1 failed job run", err)
	}
	for name, want := range map[string]bool{"out-1": true, "out-2": true, "skipped-1": true, "skipped-2": false,
		"failure-1": false, "failure-2": true, "always-1": true, "always-2": true} {
		_, err := os.Stat(filepath.Join(out, name))
		if (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(out, "out-2")); string(data) != "hi 2\n" {
		t.Errorf("out-2 = %q, want the overridden env and the matrix value", data)
	}
}
