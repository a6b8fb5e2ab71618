package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolsim": func() { os.Exit(osCLI().run(os.Args[1:])) },
	})
}

// setGolden points $GOLDEN at the repository's golden/ directory and
// $EXAMPLES at examples/.
func setGolden(t *testing.T) func(*testscript.Env) error {
	dir, err := filepath.Abs("../../golden")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	return func(env *testscript.Env) error {
		env.Setenv("GOLDEN", dir)
		env.Setenv("EXAMPLES", examples)
		return nil
	}
}

// TestScenarios runs the catalog scripts of scenarios/ with the real binary.
func TestScenarios(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "../../scenarios", Setup: setGolden(t), RequireExplicitExec: true})
}

// TestScripts runs the CLI behaviour scripts of testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: setGolden(t), RequireExplicitExec: true})
}

// TestCatalog runs the built-in catalog in-process, as `toolsim` with no
// arguments does first, and checks that every scenario passes. (The swarm
// campaign that follows it is exercised by the fuzz scripts and by CI's
// `go run ./cmd/toolsim`.)
func TestCatalog(t *testing.T) {
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, open: osCLI().open}
	if code := c.catalog(nil); code != exitOK {
		t.Fatalf("catalog exit %d\n%s%s", code, out.String(), errOut.String())
	}
	entries, _ := os.ReadDir("../../scenarios")
	want := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".txtar") {
			want++
		}
	}
	if n := strings.Count(out.String(), "\nok ") + boolInt(strings.HasPrefix(out.String(), "ok ")); n != want {
		t.Errorf("catalog passed %d scenarios, want %d:\n%s", n, want, out.String())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
