package catalog

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolsim/toolsim"
)

// A Command runs toolsim in-process for one script line and returns its
// exit status: args are the line's arguments (after `toolsim`), stdin is
// empty, stdout and stderr are the script's, and a relative file name in
// args names a file in dir, the script's current directory (the process's
// own may be anywhere, and scenarios run in parallel).
type Command func(dir string, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Result counts the scenarios of a run.
type Result struct {
	// Passed, Failed and Skipped count the scenarios by verdict.
	Passed, Failed, Skipped int
	// Broken is set when the run itself failed, apart from any scenario
	// (a script could not be read).
	Broken bool
}

// OK reports whether a run passed: it did not break, no scenario failed,
// and at least one passed.
func (r Result) OK() bool { return !r.Broken && r.Failed == 0 && r.Passed > 0 }

// Run runs the embedded scenarios whose names (without .txtar) match
// filter, nil for all, with toolsim as the in-process toolsim, and writes
// their verdicts and counts to w. An error is returned, and nothing is
// written, when the scenarios cannot be written to a temporary directory.
func Run(w io.Writer, filter *regexp.Regexp, toolsim Command) (Result, error) {
	dir, err := os.MkdirTemp("", "toolsim-catalog")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	files, err := writeCatalog(dir, filter)
	if err != nil {
		return Result{}, err
	}
	return runScripts(w, files, filepath.Join(dir, "golden"), dir+string(filepath.Separator), toolsim), nil
}

// inProcessCmd is the name of the script command that runs toolsim
// in-process. It is not "toolsim": in toolsim's own test binary,
// testscript.Main makes "toolsim" a built-in that execs the binary, and a
// built-in wins over Params.Cmds.
const inProcessCmd = "toolsim-in-process"

// runScripts runs scripts with testscript.RunT, $GOLDEN set to golden and
// inProcessCmd running toolsim, and writes their verdicts to w; strip is
// cut from the paths in their logs.
func runScripts(w io.Writer, files []string, golden, strip string, toolsim Command) Result {
	t := newScriptT(w, strip)
	if len(files) > 0 {
		t.runT(func(t testscript.T) {
			testscript.RunT(t, testscript.Params{
				Files: files,
				Setup: func(env *testscript.Env) error {
					env.Setenv("GOLDEN", golden)
					return nil
				},
				Cmds: map[string]func(*testscript.TestScript, bool, []string){inProcessCmd: scriptCmd(toolsim)},
			})
		})
	}
	return t.summary()
}

// scriptCmd is the script command inProcessCmd ARGS…: it runs toolsim
// in the script's directory, with an empty stdin.
func scriptCmd(toolsim Command) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		code := toolsim(ts.MkAbs("."), args, strings.NewReader(""), ts.Stdout(), ts.Stderr())
		switch {
		case neg && code == 0:
			ts.Fatalf("toolsim succeeded, want failure")
		case !neg && code != 0:
			ts.Fatalf("toolsim: exit status %d", code)
		}
	}
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
		if filter != nil && !filter.MatchString(strings.TrimSuffix(e.Name(), ".txtar")) {
			continue
		}
		path, err := writeScenario(dir, e.Name())
		if err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}

// writeScenario writes one embedded scenario, rewritten by inProcess, to
// dir/scenarios and its goldens to dir/golden, and returns its path.
func writeScenario(dir, name string) (string, error) {
	data, err := fs.ReadFile(toolsim.Scenarios, "scenarios/"+name)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "scenarios", name)
	if err := os.WriteFile(path, inProcess(data), 0o644); err != nil {
		return "", err
	}
	return path, writeGoldens(filepath.Join(dir, "golden"), data)
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
