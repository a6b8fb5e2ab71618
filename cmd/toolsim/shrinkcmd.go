package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
)

// shrinkFlags are shrink's flags.
type shrinkFlags struct {
	in          inputFlags
	out, oracle string
	engine      engineFlags
	file        string
}

func (c *cli) shrink(args []string) int {
	f, code, ok := c.shrinkFlags(args)
	if !ok {
		return code
	}
	cs, err := c.readCase(f.file, f.in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitUsage
	}
	cleanup, code := f.engine.setup(c, "shrink")
	if cleanup == nil {
		return code
	}
	defer cleanup()
	v, ok := c.shrinkTarget(f, cs)
	if !ok {
		return exitFail
	}
	opts := c.optsFor(cs)
	var res campaign.Shrunk
	if f.oracle != "" {
		res = campaign.ShrinkCase(c.engine(), cs, v.Oracle, opts)
		fmt.Fprintf(c.stderr, "shrunk %d → %d events for oracle %s (%d candidates tried)\n", len(cs.Events), len(res.Case.Events), v.Oracle, res.Tests)
	} else {
		// A captured trace has no fault list: any fault may stay, but no
		// feature the engine does not support.
		res = campaign.ShrinkFinding(c.engine(), cs, v, campaign.Domain{Any: true, Features: opts.Features}, opts)
		fmt.Fprintf(c.stderr, "shrunk %d → %d events for oracle %s, signature %s (%d candidates tried, %d rejected for drift)\n",
			len(cs.Events), len(res.Case.Events), v.Oracle, v.Signature, res.Tests, res.Rejected)
	}
	if res.Lost != "" {
		fmt.Fprintf(c.stderr, "toolsim shrink: %s\n", res.Lost)
		return exitFail
	}
	shrunk := res.Case
	if res.Note != "" {
		fmt.Fprintf(c.stderr, "note: %s\n", res.Note)
	}
	if f.out == "" {
		if err := event.WriteAll(c.stdout, res.Header(), shrunk.Events); err != nil {
			fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	return c.saveShrunk(f.out, res)
}

// shrinkFlags parses shrink's arguments; ok is false with the exit status
// to return.
func (c *cli) shrinkFlags(args []string) (shrinkFlags, int, bool) {
	var f shrinkFlags
	fs := flag.NewFlagSet("shrink", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.StringVar(&f.in.from, "from", "", "source format (default: detect from content)")
	fs.StringVar(&f.out, "o", "", "write the shrunk trace to OUT (and OUT's scenario .txtar and .w80.golden beside it) instead of stdout")
	fs.StringVar(&f.oracle, "oracle", "", "shrink for any failure of this oracle (default: keep the signature of the trace's first failure)")
	f.engine.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim shrink [-o OUT] [--oracle NAME] [--engine CMD [--diff]] FILE\n\nShrinks a failing trace (any supported format) to the smallest trace that still\nfails with the same signature (the first failure's; with --oracle, any failure\nof that oracle): drops events, whole tools and turns, progress, swaps\nneighbours, shortens text and args, keeping the trace valid throughout.\nExit status: 0 shrunk, 1 the trace fails no oracle, 2 usage error or unreadable input.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return f, helpOrUsage(err), false
	}
	switch {
	case fs.NArg() != 1:
		fmt.Fprintln(c.stderr, "toolsim shrink: want exactly one FILE (or - for stdin)")
		return f, exitUsage, false
	case f.oracle != "" && !slices.Contains(harness.Oracles, f.oracle):
		fmt.Fprintf(c.stderr, "toolsim shrink: unknown --oracle %q (known: %s)\n", f.oracle, strings.Join(harness.Oracles, ", "))
		return f, exitUsage, false
	}
	f.file = fs.Arg(0)
	return f, exitOK, true
}

// shrinkTarget picks the violation to shrink for, or says why there is
// none.
func (c *cli) shrinkTarget(f shrinkFlags, cs *harness.Case) (harness.Violation, bool) {
	found := harness.CheckCase(c.engine(), cs, c.optsFor(cs))
	v, ok := pickViolation(found, f.oracle)
	switch {
	case ok:
	case f.oracle != "":
		fmt.Fprintf(c.stderr, "toolsim shrink: %s fails no %q oracle (it fails %d others): nothing to shrink\n", f.file, f.oracle, len(found))
	default:
		fmt.Fprintf(c.stderr, "toolsim shrink: %s passes every oracle: nothing to shrink\n", f.file)
	}
	return v, ok
}

func pickViolation(found []harness.Violation, oracle string) (harness.Violation, bool) {
	for _, v := range found {
		if oracle == "" || v.Oracle == oracle {
			return v, true
		}
	}
	return harness.Violation{}, false
}

// saveShrunk writes OUT, and the scenario and golden beside it.
func (c *cli) saveShrunk(out string, res campaign.Shrunk) int {
	paths, err := res.Save(out, c.me()+" check"+c.engineArgs)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitFail
	}
	for _, p := range paths {
		fmt.Fprintf(c.stdout, "saved %s\n", p)
	}
	fmt.Fprintf(c.stdout, "reproduce: toolsim check%s %s\n", c.engineArgs, shellQuote(out))
	return exitOK
}
