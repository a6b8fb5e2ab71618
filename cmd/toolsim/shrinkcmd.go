package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
)

func (c *cli) shrink(args []string) int {
	fs := flag.NewFlagSet("shrink", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var in inputFlags
	fs.StringVar(&in.from, "from", "", "source format (default: detect from content)")
	out := fs.String("o", "", "write the shrunk trace to OUT (and OUT's scenario .txtar and .w80.golden beside it) instead of stdout")
	oracle := fs.String("oracle", "", "shrink for this oracle (default: the first one the trace fails)")
	var ef engineFlags
	ef.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim shrink [-o OUT] [--oracle NAME] [--engine CMD [--diff]] FILE\n\nShrinks a failing trace (any supported format) to the smallest trace that still\nfails the same oracle: drops events, whole tools and turns, progress, swaps\nneighbours, shortens text and args, keeping the trace valid throughout.\nExit status: 0 shrunk, 1 the trace fails no oracle, 2 usage error or unreadable input.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(c.stderr, "toolsim shrink: want exactly one FILE (or - for stdin)")
		return exitUsage
	}
	if *oracle != "" && !slices.Contains(harness.Oracles, *oracle) {
		fmt.Fprintf(c.stderr, "toolsim shrink: unknown --oracle %q (known: %s)\n", *oracle, strings.Join(harness.Oracles, ", "))
		return exitUsage
	}
	cs, err := c.readCase(fs.Arg(0), in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitUsage
	}
	cleanup, code := ef.setup(c, "shrink")
	if cleanup == nil {
		return code
	}
	defer cleanup()
	found := harness.CheckCase(c.engine(), cs, c.checkOpts)
	v, ok := pickViolation(found, *oracle)
	if !ok {
		if *oracle != "" {
			fmt.Fprintf(c.stderr, "toolsim shrink: %s fails no %q oracle (it fails %d others): nothing to shrink\n", fs.Arg(0), *oracle, len(found))
		} else {
			fmt.Fprintf(c.stderr, "toolsim shrink: %s passes every oracle: nothing to shrink\n", fs.Arg(0))
		}
		return exitFail
	}
	shrunk, by, tests := harness.ShrinkCase(c.engine(), cs, v.Oracle, c.checkOpts)
	fl := &harness.Failure{Violation: v, Case: cs, Shrunk: shrunk, ShrunkBy: by, Tests: tests}
	fmt.Fprintf(c.stderr, "shrunk %d → %d events for oracle %s (%d candidates tried)\n", len(cs.Events), len(shrunk.Events), v.Oracle, tests)
	h := harness.Header(harness.SourceShrink, 0, harness.CaseMeta(harness.TraceMeta{Oracle: v.Oracle}, shrunk))
	if *out == "" {
		if err := writeTrace(c.stdout, h, shrunk.Events); err != nil {
			fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	return c.saveShrunk(*out, h, fl)
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
func (c *cli) saveShrunk(out string, h *event.Header, fl *harness.Failure) int {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitFail
	}
	if err := writeFile(out, h, fl.Shrunk.Events); err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitFail
	}
	base := strings.TrimSuffix(strings.TrimSuffix(out, ".jsonl"), ".min")
	scen, golden, err := c.writeScenario(base, h, fl)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim shrink: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "saved %s\nsaved %s\nsaved %s\nreproduce: toolsim check%s %s\n", out, scen, golden, c.engineArgs, shellQuote(out))
	return exitOK
}
