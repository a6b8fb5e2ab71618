package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/internal/shquote"
)

// maxShown bounds the violations printed per trace.
const maxShown = 5

func referenceEngine() harness.Engine { return engine.New(engine.Options{}) }

func (c *cli) check(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var in inputFlags
	var ef engineFlags
	var rf reportFlags
	in.register(fs)
	ef.register(fs, true)
	rf.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim check [--from F] [--strict] [--engine CMD [--diff] [--timeout D]] [--features LIST] [--contract LIST]\n                     [--robustness] [--json F] [--junit F] [--html F] FILE|DIR...\n\nRuns every oracle of SPEC §5 on each trace (any supported format; - reads stdin;\na directory means its *.jsonl files): after every event and at the end, plus\norder independence and the reconstruction oracles. A trace from 'toolsim sim'\nkeeps its log faults and reconnect point from its header.\nAn event of an unknown kind is kept with a warning (an error with --strict).\nExit status: 0 all pass, 1 an oracle failed or a trace is bad input, 2 usage\nerror or a file that cannot be opened.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(c.stderr, "toolsim check: want at least one FILE or DIR (- for stdin)")
		return exitUsage
	}
	files, err := formats.Expand(fs.Args())
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim check: %v\n", err)
		return exitUsage
	}
	cleanup, code := ef.setup(c, "check")
	if cleanup == nil {
		return code
	}
	defer cleanup()
	code = exitOK
	rec := rf.recorder("toolsim check")
	for _, name := range files {
		code = max(code, c.checkOne(name, in, rec))
	}
	if len(files) > 1 {
		rec.suite.WriteSignatures(c.stdout)
	}
	return rec.write(c, code)
}

// checkOne checks one trace and prints its verdict. It returns the exit
// status.
func (c *cli) checkOne(name string, in inputFlags, rec *recorder) int {
	cs, n, found, err := c.checkTrace(name, in)
	var breach *contract.Breach
	var documented contract.Behaviour
	if len(found) > 0 {
		breach = c.checkOpts.Contract.Guarantees.Check(cs.Events)
		documented = campaign.Documents(c.checkOpts.Contract, found[0].Signature)
	}
	if breach != nil && !c.robustness || documented != "" {
		rec.check(c, name, cs, n, nil, err) // not counted: the reports pass it
	} else {
		rec.check(c, name, cs, n, found, err)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim check: %v\n", err)
		return inputStatus(err)
	}
	if len(found) == 0 {
		fmt.Fprintf(c.stdout, "ok    %s (%d events)\n", name, n)
		return exitOK
	}
	if documented != "" {
		c.printDeclared(name, len(found), documented, found[0].Signature)
		return exitOK
	}
	if breach != nil && !c.robustness {
		fmt.Fprintf(c.stdout, "outside the contract  %s: %d violations, not counted: an input the declared upstream does not send (%s)\n", name, len(found), breach)
		fmt.Fprintf(c.stdout, "  signature: %s\n", found[0].Signature)
		fmt.Fprintf(c.stdout, "count it: %s check%s --robustness %s\n", c.me(), c.engineArgs, shquote.Quote(name))
		return exitOK
	}
	fmt.Fprintf(c.stdout, "FAIL  %s: %d violations\n", name, len(found))
	fmt.Fprintf(c.stdout, "  signature: %s\n", found[0].Signature)
	if breach != nil {
		fmt.Fprintf(c.stdout, "  robustness: an input the declared upstream does not send: %s\n", breach)
	}
	c.printViolations(cs.Events, found)
	fmt.Fprintf(c.stdout, "reproduce: %s check%s %s\n", c.me(), c.engineArgs, shquote.Quote(name))
	return exitFail
}

// printDeclared prints the verdict on a trace whose first failure shows
// behaviour b the engine declares: "documented" or "by design" first, so
// that each label reads apart.
func (c *cli) printDeclared(name string, violations int, b contract.Behaviour, sig string) {
	if c.checkOpts.Contract.Label(b) == contract.LabelByDesign {
		fmt.Fprintf(c.stdout, "by design  %s: %d violations, not counted: the library's behaviour %s, by design, undocumented (%s)\n", name, violations, b, b.Describe())
	} else {
		fmt.Fprintf(c.stdout, "documented  %s: %d violations, not counted: the library's documented behaviour %s (%s)\n", name, violations, b, b.Describe())
	}
	fmt.Fprintf(c.stdout, "  signature: %s\n", sig)
}

// checkTrace checks one trace. It returns the case (its events only when
// the check read them whole, or when it failed), the number of events, and
// what the check found. A canonical trace file is streamed when nothing
// asks for the whole trace (see checkStreamed).
func (c *cli) checkTrace(name string, in inputFlags) (*harness.Case, int, []harness.Violation, error) {
	if found, n, ok := c.checkStreamed(name, in); ok {
		if len(found) == 0 {
			return &harness.Case{}, n, nil, nil
		}
		cs, err := c.readCase(name, in) // the events, to show what failed
		if err != nil {
			return nil, 0, nil, err
		}
		return cs, len(cs.Events), found, nil
	}
	cs, err := c.readCase(name, in)
	if err != nil {
		return nil, 0, nil, err
	}
	return cs, len(cs.Events), harness.CheckCase(c.engine(), cs, c.optsFor(cs)), nil
}

// checkStreamed checks a canonical trace file without holding its events:
// harness.CheckSource reads it once per replay. It reports false, having
// checked nothing, when the trace must be read whole: stdin, another
// format, a trace whose options ask for toolsim's own log round trip or
// the engine's reload or its crash (they need every event at once), or any trouble
// reading it (the whole-trace path then reports it as it always has).
func (c *cli) checkStreamed(name string, in inputFlags) ([]harness.Violation, int, bool) {
	if name == "-" {
		return nil, 0, false
	}
	first, err := c.openTrace(name, in)
	if err != nil {
		return nil, 0, false
	}
	cs, err := harness.ReadCase(first.Header, nil)
	if opts := c.optsFor(cs); err != nil || first.Format != formats.Canonical || opts.SelfCheck || opts.Reload || (opts.Crash && cs.CrashAt > 0) {
		first.close()
		return nil, 0, false
	}
	count := &counted{input: first}
	var inputs []*input
	defer func() {
		for _, in := range inputs {
			in.close()
		}
	}()
	open := func() (harness.Source, error) {
		if len(inputs) == 0 {
			inputs = append(inputs, first)
			return count, nil
		}
		next, err := c.openTrace(name, in)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, next)
		return next, nil
	}
	found, err := harness.CheckSource(c.engine(), open, c.optsFor(cs))
	if err != nil || (count.n == 0 && first.Header == nil) {
		return nil, 0, false
	}
	return found, count.n, true
}

// counted counts the events read through it.
type counted struct {
	*input
	n int
}

func (s *counted) Next(ev *event.Event) error {
	err := s.input.Next(ev)
	if err == nil {
		s.n++
	}
	return err
}

// printViolations prints the first few violations, each with the event it
// followed and its diff. An engine failure past them is printed too, after
// the count of those left out: it says why the check of the engine
// stopped (an external engine's own oracle, such as toolsim-agent's resume
// oracle at the end of the stream).
func (c *cli) printViolations(evs []event.Event, found []harness.Violation) {
	for i, v := range found {
		if i == maxShown {
			fmt.Fprintf(c.stdout, "  … and %d more\n", len(found)-maxShown)
			if last := found[len(found)-1]; last.Oracle == harness.OracleEngine {
				c.printViolation(evs, last)
			}
			break
		}
		c.printViolation(evs, v)
	}
}

// printViolation prints one violation with the event it followed.
func (c *cli) printViolation(evs []event.Event, v harness.Violation) {
	fmt.Fprintf(c.stdout, "  %s\n", indent(v.String(), "  "))
	if ev := eventBySeq(evs, v.Seq); ev != nil {
		fmt.Fprintf(c.stdout, "    event: %s\n", event.AppendEvent(nil, ev))
	}
}

func eventBySeq(evs []event.Event, seq int64) *event.Event {
	i := sort.Search(len(evs), func(i int) bool { return evs[i].Seq >= seq })
	if i < len(evs) && evs[i].Seq == seq {
		return &evs[i]
	}
	return nil
}

func indent(s, pad string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}

// readCase reads a trace in any format. A canonical trace's header from
// toolsim restores its reconstruction settings.
func (c *cli) readCase(name string, in inputFlags) (*harness.Case, error) {
	cs, _, err := c.readCaseHeader(name, in)
	return cs, err
}

// readCaseHeader is readCase, with the trace's header (nil for a
// canonical trace without one).
func (c *cli) readCaseHeader(name string, in inputFlags) (*harness.Case, *event.Header, error) {
	src, evs, err := c.readEvents(name, in)
	if err != nil {
		return nil, nil, err
	}
	if len(evs) == 0 && src.Header == nil { // a header alone is a valid, empty trace
		return nil, nil, fmt.Errorf("%s: no events: not a trace", src.display)
	}
	cs, err := harness.ReadCase(src.Header, evs)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: line 1: %w", src.display, err)
	}
	return cs, src.Header, nil
}
