package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/shquote"
	"github.com/toolsim/toolsim/view"
)

func (c *cli) view(args []string) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var in inputFlags
	var out string
	var width int
	in.register(fs)
	fs.StringVar(&out, "o", "", "the page to write (default: FILE's name with .html, in the current directory; - for stdout)")
	fs.IntVar(&width, "width", 80, "render width in cells")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim view [--from F] [--strict] [-o out.html] [--width N] FILE\n\nWrites one self-contained HTML page for a trace (any supported format; - reads\nstdin): a swimlane per tool call beside the plain render, with a scrubber that\nshows the render after any event. The page needs no network.\nExit status: 0 written, 1 the trace could not be read (or, with --strict, holds\nan unknown kind), 2 usage error or a file that cannot be opened.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 || width < 20 {
		fmt.Fprintln(c.stderr, "toolsim view: want one FILE (- for stdin) and --width ≥ 20")
		return exitUsage
	}
	name := fs.Arg(0)
	h, evs, _, err := c.readTrace(name, in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim view: %v\n", err)
		return inputStatus(err)
	}
	if out == "" {
		out = pageName(name)
	}
	opts := view.Options{Title: displayName(name), Header: h, Width: width}
	if err := c.writePage(out, evs, opts); err != nil {
		fmt.Fprintf(c.stderr, "toolsim view: %v\n", err)
		return exitFail
	}
	if out != "-" {
		fmt.Fprintf(c.stdout, "wrote %s (%d events)\n", out, len(evs))
	}
	return exitOK
}

// writePage writes a page to path (- for stdout).
func (c *cli) writePage(path string, evs []event.Event, opts view.Options) error {
	if path == "-" {
		return view.Write(c.stdout, evs, opts)
	}
	return view.WriteFile(path, evs, opts)
}

// pageName is the default page for a trace: its base name with .html.
func pageName(name string) string {
	if name == "-" {
		return "stdin.html"
	}
	base := filepath.Base(name)
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".html"
}

func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// failurePages writes check --html pages: the first failing trace to
// path, later ones to path with -2, -3, ... before the extension.
type failurePages struct{ view.Pages }

// write writes the page of one failing trace, says where, and returns
// its path ("" when none was written).
func (p *failurePages) write(c *cli, name string, cs *harness.Case, v harness.Violation) string {
	if p == nil || p.Path == "" || cs == nil {
		return ""
	}
	out := p.Next()
	f := &view.Failure{Violation: v, Reproduce: c.me() + " check" + c.engineArgs + " " + shquote.Quote(name)}
	if c.newEngine != nil {
		f.Engine = c.newEngine
	}
	opts := view.Options{Title: displayName(name), Failure: f}
	if err := c.writePage(out, cs.Events, opts); err != nil {
		fmt.Fprintf(c.stderr, "toolsim check: --html: %v\n", err)
		return ""
	}
	fmt.Fprintf(c.stdout, "html: %s\n", out)
	return out
}
