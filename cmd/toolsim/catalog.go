package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/toolsim/toolsim/catalog"
)

// catalog runs the built-in scenarios (package catalog) with toolsim
// in-process.
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
	res, err := catalog.Run(c.stdout, filter, inProcessToolsim)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim catalog: %v\n", err)
		return exitFail
	}
	if !res.OK() {
		return exitFail
	}
	return exitOK
}

// inProcessToolsim is the catalog's toolsim: a fresh cli whose relative
// file names are in dir.
func inProcessToolsim(dir string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	open := func(name string) (io.ReadCloser, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return os.Open(name)
	}
	sub := &cli{stdin: stdin, stdout: stdout, stderr: stderr, open: open}
	return sub.run(args)
}
