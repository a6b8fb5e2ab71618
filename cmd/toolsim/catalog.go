package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolsim/toolsim"
)

// The catalog runs the embedded scenarios/*.txtar scripts with testscript
// (RunT), the scripts `make test` runs with the real binary
// (TestScenarios). Outside `go test` there is no toolsim binary to exec:
// toolsim is registered in Params.Cmds as inProcessCmd and runs
// in-process, and each script's `exec toolsim` (and `! exec toolsim`)
// lines are read as inProcessCmd lines. The scripts and goldens are written
// to a temporary directory, removed at the end; $GOLDEN points at its
// golden/.

// inProcessCmd is the name of the script command that runs toolsim
// in-process. It is not "toolsim": in toolsim's own test binary,
// testscript.Main makes "toolsim" a built-in that execs the binary, and a
// built-in wins over Params.Cmds.
const inProcessCmd = "toolsim-in-process"

func (c *cli) catalog(args []string) int {
	fset := flag.NewFlagSet("catalog", flag.ContinueOnError)
	fset.SetOutput(c.stderr)
	run := fset.String("run", "", "only run scenarios whose name matches this regexp")
	fset.Usage = func() {
		fmt.Fprintln(fset.Output(), "usage: toolsim [catalog] [--run REGEXP]\n\nRuns every built-in scenario through the engine and renderer and compares\nthe output with its golden; prints one line per scenario, and the script's\nlog under a failing one.\n\nFlags:")
		printFlags(fset)
	}
	if err := c.parseFlags(fset, args); err != nil {
		return helpOrUsage(err)
	}
	filter, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: bad --run: %v\n", err)
		return exitUsage
	}
	return c.runCatalog(filter)
}

// runCatalog runs the embedded scenarios whose names match filter.
func (c *cli) runCatalog(filter *regexp.Regexp) int {
	dir, err := os.MkdirTemp("", "toolsim-catalog")
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: %v\n", err)
		return exitFail
	}
	defer os.RemoveAll(dir)
	files, err := writeCatalog(dir, filter)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: %v\n", err)
		return exitFail
	}
	return c.runScripts(files, filepath.Join(dir, "golden"), dir+string(filepath.Separator))
}

// runScripts runs scripts with testscript.RunT, $GOLDEN set to golden,
// and prints their verdicts; strip is cut from the paths in their logs.
func (c *cli) runScripts(files []string, golden, strip string) int {
	t := newCatalogT(c.stdout, strip)
	if len(files) > 0 {
		t.runT(func(t testscript.T) {
			testscript.RunT(t, testscript.Params{
				Files: files,
				Setup: func(env *testscript.Env) error {
					env.Setenv("GOLDEN", golden)
					return nil
				},
				Cmds: map[string]func(*testscript.TestScript, bool, []string){inProcessCmd: scriptToolsim},
			})
		})
	}
	return t.summary()
}

// writeCatalog writes the scenarios that match filter to dir/scenarios
// (their `exec toolsim` lines run inProcessCmd) and the goldens they
// compare with to dir/golden, and returns the scenarios' paths.
func writeCatalog(dir string, filter *regexp.Regexp) ([]string, error) {
	entries, err := fs.ReadDir(toolsim.Scenarios, "scenarios")
	if err != nil {
		return nil, err
	}
	for _, sub := range []string{"scenarios", "golden"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, err
		}
	}
	var files []string
	for _, e := range entries {
		if !filter.MatchString(strings.TrimSuffix(e.Name(), ".txtar")) {
			continue
		}
		data, err := fs.ReadFile(toolsim.Scenarios, "scenarios/"+e.Name())
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, "scenarios", e.Name())
		if err := os.WriteFile(path, inProcess(data), 0o644); err != nil {
			return nil, err
		}
		files = append(files, path)
		if err := writeGoldens(filepath.Join(dir, "golden"), data); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// goldenRef is a script's reference to a golden file.
var goldenRef = regexp.MustCompile(`\$\{?GOLDEN\}?/([\w.-]+)`)

// writeGoldens writes to dir the embedded goldens a script refers to (a
// golden that is not embedded is left out: the script's cmp says so).
func writeGoldens(dir string, script []byte) error {
	for _, m := range goldenRef.FindAllSubmatch(script, -1) {
		data, err := fs.ReadFile(toolsim.Golden, "golden/"+string(m[1]))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, string(m[1])), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// execToolsim is a script line that runs toolsim as a program.
var execToolsim = regexp.MustCompile(`(?m)^(\s*(?:!\s+)?)exec\s+toolsim\b`)

// inProcess turns a script's `exec toolsim` lines into inProcessCmd
// lines. Only the comment (the script) changes, line for line, so
// failures name the script's own lines.
func inProcess(script []byte) []byte {
	end := len(script)
	if i := bytes.Index(script, []byte("\n-- ")); i >= 0 {
		end = i
	}
	out := execToolsim.ReplaceAll(script[:end:end], []byte("${1}"+inProcessCmd))
	return append(out, script[end:]...)
}

// scriptToolsim is the script command inProcessCmd ARGS…: it runs
// toolsim in-process on the script's files, with an empty stdin.
func scriptToolsim(ts *testscript.TestScript, neg bool, args []string) {
	sub := &cli{
		stdin: strings.NewReader(""), stdout: ts.Stdout(), stderr: ts.Stderr(),
		open: func(name string) (io.ReadCloser, error) { return os.Open(ts.MkAbs(name)) },
	}
	code := sub.run(args)
	switch {
	case neg && code == 0:
		ts.Fatalf("toolsim succeeded, want failure")
	case !neg && code != 0:
		ts.Fatalf("toolsim: exit status %d", code)
	}
}
