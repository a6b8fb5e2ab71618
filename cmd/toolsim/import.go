package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/redact"
)

func (c *cli) importCmd(args []string) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var in inputFlags
	fs.StringVar(&in.from, "from", "", "source format (default: detect from content): "+strings.Join(formats.Names(), ", "))
	fs.BoolVar(&in.strict, "strict", false, strictUsage)
	fs.BoolVar(&in.all, "all", false, allUsage)
	fs.BoolVar(&in.redact, "redact", false, "replace secrets, e-mail addresses and home paths with stable placeholders (see toolsim redact)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim import [--from FORMAT] [--strict] [--all] [--redact] FILE\n\nConverts an agent log (Claude Code, Codex, ACP, SSE streams, Gemini CLI,\nopencode exports, go-vcr cassettes) into a canonical toolsim trace on stdout. Lines that\ncannot be mapped are listed on stderr with their line numbers.\nExit status: 0 clean, 1 lines were skipped or the import failed, 2 usage or a\nfile that cannot be opened.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(c.stderr, "toolsim import: want exactly one FILE (or - for stdin)")
		return exitUsage
	}
	if in.from != "" {
		if _, err := formats.ByName(in.from); err != nil {
			fmt.Fprintf(c.stderr, "toolsim import: --from: %v\n", err)
			return exitUsage
		}
	}
	return c.runImport(fs.Arg(0), in)
}

func (c *cli) runImport(name string, in inputFlags) int {
	src, err := c.openTrace(name, in)
	var ie *formats.ImportError
	if errors.As(err, &ie) {
		fmt.Fprintf(c.stderr, "toolsim import: %s as %s: %v\n", ie.Name, ie.Format, ie.Err)
		return exitFail
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim import: %v\n", err)
		return inputStatus(err)
	}
	defer src.close()
	res, err := src.Result()
	if errors.As(err, &ie) {
		fmt.Fprintf(c.stderr, "toolsim import: %s as %s: %v\n", ie.Name, ie.Format, ie.Err)
		return exitFail
	}
	if err != nil {
		c.reportProblems(src.display, src.Problems)
		fmt.Fprintf(c.stderr, "toolsim import: %v\n", err)
		return exitFail
	}
	if in.redact {
		r := redact.Trace(&res.Header, res.Events)
		fmt.Fprintf(c.stderr, "%s: %s\n", src.display, redactSummary(r.Found))
	}
	if err := event.WriteAll(c.stdout, &res.Header, res.Events); err != nil {
		fmt.Fprintf(c.stderr, "toolsim import: write: %v\n", err)
		return exitFail
	}
	c.reportProblems(src.display, res.Problems)
	if len(res.Problems) > 0 {
		return exitFail
	}
	return exitOK
}
