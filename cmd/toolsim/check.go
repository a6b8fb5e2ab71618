package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/tracemeta"
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
	fs.StringVar(&in.from, "from", "", "source format (default: detect from content)")
	ef.register(fs, true)
	rf.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim check [--from F] [--engine CMD [--diff] [--timeout D]] [--json F] [--junit F] [--html F] FILE|DIR...\n\nRuns every oracle of SPEC §5 on each trace (any supported format; - reads stdin;\na directory means its *.jsonl files): after every event and at the end, plus\norder independence and the reconstruction oracles. A trace from 'toolsim sim'\nkeeps its log faults and reconnect point from its header.\nExit status: 0 all pass, 1 an oracle failed, 2 usage error or unreadable input.\n\nFlags:")
		printFlags(fs)
	}
	if err := parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(c.stderr, "toolsim check: want at least one FILE or DIR (- for stdin)")
		return exitUsage
	}
	files, err := expandTraces(fs.Args())
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
	return rec.write(c, code)
}

// expandTraces replaces each directory by its *.jsonl files, sorted.
func expandTraces(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, a) // a file; errors are reported when it is opened
			continue
		}
		matches, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: no *.jsonl traces in this directory", a)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

// checkOne checks one trace and prints its verdict.
func (c *cli) checkOne(name string, in inputFlags, rec *recorder) int {
	cs, err := c.readCase(name, in)
	var found []harness.Violation
	if err == nil {
		found = harness.CheckCase(c.engine(), cs, c.optsFor(cs))
	}
	rec.check(c, name, cs, found, err)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim check: %v\n", err)
		if errors.Is(err, formats.ErrNoEvents) {
			return exitFail // as every command that reads a trace
		}
		return exitUsage
	}
	if len(found) == 0 {
		fmt.Fprintf(c.stdout, "ok    %s (%d events)\n", name, len(cs.Events))
		return exitOK
	}
	fmt.Fprintf(c.stdout, "FAIL  %s: %d violations\n", name, len(found))
	c.printViolations(cs.Events, found)
	fmt.Fprintf(c.stdout, "reproduce: toolsim check%s %s\n", c.engineArgs, shellQuote(name))
	return exitFail
}

// printViolations prints the first few violations, each with the event it
// followed and its diff.
func (c *cli) printViolations(evs []event.Event, found []harness.Violation) {
	for i, v := range found {
		if i == maxShown {
			fmt.Fprintf(c.stdout, "  … and %d more\n", len(found)-maxShown)
			break
		}
		fmt.Fprintf(c.stdout, "  %s\n", indent(v.String(), "  "))
		if ev := eventBySeq(evs, v.Seq); ev != nil {
			fmt.Fprintf(c.stdout, "    event: %s\n", event.AppendEvent(nil, ev))
		}
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

// shellQuote quotes a path for a command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// readCase reads a trace in any format. A canonical trace's header from
// toolsim restores its reconstruction settings.
func (c *cli) readCase(name string, in inputFlags) (*harness.Case, error) {
	src, evs, err := c.readEvents(name, in)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 && src.Header == nil { // a header alone is a valid, empty trace
		return nil, fmt.Errorf("%s: no events: not a trace", src.display)
	}
	cs, err := caseOf(src.Header, evs)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: %w", src.display, err)
	}
	return cs, nil
}

// caseOf builds the case a trace describes: its events, and for a trace
// toolsim wrote, the log faults and reconnect point its header records.
func caseOf(h *event.Header, evs []event.Event) (*harness.Case, error) {
	r, err := tracemeta.Read(h)
	if err != nil {
		return nil, err
	}
	return &harness.Case{Events: evs, Generated: r.Generated, LogFaults: r.LogFaults,
		FaultSeed: r.FaultSeed, ReconnectAt: r.ReconnectAt, BatchIDs: r.BatchIDs}, nil
}

// replayOf is the reconstruction settings of a case, for its header.
func replayOf(cs *harness.Case) tracemeta.Replay {
	return tracemeta.Replay{LogFaults: cs.LogFaults, FaultSeed: cs.FaultSeed, ReconnectAt: cs.ReconnectAt, BatchIDs: cs.BatchIDs}
}
