package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolsim/toolsim/internal/procgroup"
	"github.com/toolsim/toolsim/internal/race"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolsim": func() {
			c := osCLI()
			c.now = testClock(os.Getenv("TOOLSIM_TEST_CLOCK"))
			os.Exit(c.run(os.Args[1:]))
		},
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
//
// Each script runs the toolsim binary as a process. Under -race it skips:
// TestCatalog runs the same scripts in-process under the detector, and
// make test's second step runs this one without it.
func TestScenarios(t *testing.T) {
	if race.Enabled {
		t.Skip("the scenarios run in-process under -race (TestCatalog); make test runs them as processes in its second step, without -race")
	}
	testscript.Run(t, testscript.Params{Dir: "../../scenarios", Setup: setGolden(t), RequireExplicitExec: true})
}

// TestScripts runs the CLI behaviour scripts of testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: setGolden(t), RequireExplicitExec: true, Cmds: scriptCmds, Condition: raceCondition})
}

// TestCatalog runs the built-in catalog (testscript.RunT, toolsim
// in-process), as `toolsim` with no arguments does first, and checks that
// every scenario passes. (The swarm
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

// raceCondition is the scripts' [race] condition: the race detector is on.
// A script bound by a Python or Node engine skips under it; make test runs
// it again without the detector.
func raceCondition(cond string) (bool, error) {
	if cond == "race" {
		return race.Enabled, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptCmds are the scripts' own commands.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// fifo NAME: make a named pipe; await FIFO FILE: read FIFO (blocking
	// until a writer, e.g. a wrapper script writing its $$, is done) into
	// FILE. Together they let a script wait for a child without sleeping.
	"fifo": func(ts *testscript.TestScript, neg bool, args []string) {
		ts.Check(mkfifo(ts.MkAbs(args[0])))
	},
	"await": func(ts *testscript.TestScript, neg bool, args []string) {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
	},
	// gone FILE: no live process is left in the process group whose id
	// FILE holds (a wrapper script writes its $$ there).
	"gone": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: gone PIDFILE")
		}
		pgid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
		ts.Check(err)
		err = procgroup.CheckGone(pgid)
		if err != nil {
			killGroup(pgid)
		}
		if neg != (err != nil) {
			ts.Fatalf("gone %d: %v", pgid, err)
		}
	},
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDocListsEveryCommand: the package doc names every command, so that
// `go doc` of the command cannot fall behind the command table.
func TestDocListsEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range commands() {
		if !strings.Contains(string(doc), "//\ttoolsim "+cmd.name+" ") {
			t.Errorf("doc.go does not list toolsim %s", cmd.name)
		}
	}
}
