package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/internal/shquote"
	"github.com/toolsim/toolsim/sim"
)

// shrinkFlags are shrink's flags.
type shrinkFlags struct {
	in          inputFlags
	out, oracle string
	faults      string // --faults: the domain, instead of the header's
	engine      engineFlags
	file        string
}

func (c *cli) shrink(args []string) int {
	f, code, ok := c.shrinkFlags(args)
	if !ok {
		return code
	}
	cs, h, err := c.readCaseHeader(f.file, f.in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return inputStatus(err)
	}
	dom, from, err := shrinkDomain(f, h, c.optsFor(cs).Features)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %s: line 1: %v\n", displayName(f.file), err)
		return exitFail
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
	fmt.Fprintf(c.stderr, "shrink domain: %s\n", from)
	res := c.runShrink(f, cs, v, dom)
	if res.Lost != "" {
		fmt.Fprintf(c.stderr, "toolsim shrink: %s\n", res.Lost)
		return exitFail
	}
	if res.Note != "" {
		fmt.Fprintf(c.stderr, "note: %s\n", res.Note)
	}
	return c.writeShrunk(f, res)
}

// shrinkDomain is the domain shrink keeps the trace in, and where it came
// from: --faults when given, else the trace header's (campaign.ShrinkDomain).
func shrinkDomain(f shrinkFlags, h *event.Header, features sim.FeatureList) (campaign.Domain, string, error) {
	if f.faults == "" {
		return campaign.ShrinkDomain(h, features)
	}
	faults, err := fault.Parse(f.faults) // checked by shrinkFlags
	return campaign.Domain{Faults: faults, Features: features}, "faults " + faults.String() + " (--faults)", err
}

// runShrink shrinks cs for v (with --oracle, for any failure of that
// oracle) inside dom, and prints what it did.
func (c *cli) runShrink(f shrinkFlags, cs *harness.Case, v harness.Violation, dom campaign.Domain) campaign.Shrunk {
	opts := c.optsFor(cs)
	if f.oracle != "" {
		res := campaign.ShrinkCaseIn(c.engine(), cs, v.Oracle, dom, opts)
		fmt.Fprintf(c.stderr, "shrunk %d → %d events for oracle %s (%d candidates tried)\n", len(cs.Events), len(res.Case.Events), v.Oracle, res.Tests)
		return res
	}
	res := campaign.ShrinkFinding(c.engine(), cs, v, dom, opts)
	fmt.Fprintf(c.stderr, "shrunk %d → %d events for oracle %s, signature %s (%d candidates tried, %d rejected for drift)\n",
		len(cs.Events), len(res.Case.Events), v.Oracle, v.Signature, res.Tests, res.Rejected)
	return res
}

// writeShrunk writes the shrunk trace (and its header) to stdout, or
// with -o saves it with its scenario and golden.
func (c *cli) writeShrunk(f shrinkFlags, res campaign.Shrunk) int {
	shrunk := res.Case
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
	f.in.register(fs)
	fs.StringVar(&f.out, "o", "", "write the shrunk trace to OUT (and OUT's scenario .txtar and .w80.golden beside it) instead of stdout")
	fs.StringVar(&f.oracle, "oracle", "", "shrink for any failure of this oracle (default: keep the signature of the trace's first failure)")
	fs.StringVar(&f.faults, "faults", "", "keep the shrunk trace inside these trace faults (comma-separated, all or none; default: the faults the header of a trace toolsim generated records, else any fault)")
	f.engine.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim shrink [-o OUT] [--oracle NAME] [--faults LIST] [--from F] [--strict] [--engine CMD [--diff]]\n                      [--features LIST] [--contract LIST] [--robustness] FILE\n\nShrinks a failing trace (any supported format) to the smallest trace that still\nfails with the same signature (the first failure's; with --oracle, any failure\nof that oracle): drops events, whole tools and turns, progress, swaps\nneighbours, shortens text and args, keeping the trace valid throughout. Every\ncandidate stays inside the trace faults of the domain: those the header of a\ntrace toolsim generated records (sim, a campaign's saved failure), else any\nfault; --faults overrides it.\nExit status: 0 shrunk, 1 the trace fails no oracle or is bad input, 2 usage\nerror or a file that cannot be opened.\n\nFlags:")
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
	if _, err := fault.Parse(f.faults); err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: --faults: %v\n", err)
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
	fmt.Fprintf(c.stdout, "reproduce: toolsim check%s %s\n", c.engineArgs, shquote.Quote(out))
	return exitOK
}
