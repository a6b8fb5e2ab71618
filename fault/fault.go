package fault

import (
	"fmt"
	"slices"
	"strings"
)

// Fault names one fault knob. Trace faults change the events the simulator
// emits; log faults change the persisted log the reconstruction oracles
// rebuild; [Reconnect] makes the harness rebuild a prefix of the trace and
// go on live; [Crash] makes it kill and resume an engine that can be.
type Fault string

// The trace faults (SPEC §6).
const (
	Order               Fault = "order"                 // results arrive in any order (random durations)
	Cancel              Fault = "cancel"                // the user cancels at any point of a batch
	CancelBeforeResult  Fault = "cancel-before-result"  // a cancel between a tool's last progress and its result
	UnknownID           Fault = "unknown-id"            // progress or a result for an id never started
	DuplicateResult     Fault = "duplicate-result"      // a second result for a finished tool
	MissingResult       Fault = "missing-result"        // a tool never gets its result
	ResultBeforeStart   Fault = "result-before-start"   // a tool's result arrives before its start
	EmptyID             Fault = "empty-id"              // a tool event with id ""
	ReusedIDBatch       Fault = "reused-id-batch"       // two tools of one batch share an id
	ReusedIDTurns       Fault = "reused-id-turns"       // a later turn reuses an earlier turn's id
	IDIsName            Fault = "id-is-name"            // a tool's id equals its name
	SameName            Fault = "same-name"             // several tools of one batch share a name
	ProgressAfterResult Fault = "progress-after-result" // progress for a tool already finished
	LateResult          Fault = "late-result"           // a result after cancel, denial or turn end
	ProgressBurst       Fault = "progress-burst"        // dozens of progress updates at one instant
	Reconnect           Fault = "reconnect"             // rebuild from the log mid-stream, then go on live
	// Crash kills the engine's process while tools run and resumes it: an
	// engine that declares the crash capability (a real agent app) must
	// show no call finished that did not finish, and none running for
	// ever. Its draws come from a stream of their own, so switching it on
	// or off leaves every other draw of a seed alone.
	Crash Fault = "crash"
)

// The log faults (SPEC §4, seed 004): how a real persisted log breaks.
const (
	// Ties stamps records at 10 ms resolution, so neighbours tie.
	Ties Fault = "ties"
	// LateText holds assistant text until the turn ends or is cancelled and
	// then writes it with its earlier start time (seed 004's interrupted
	// text): file order no longer matches time order.
	LateText Fault = "late-text"
	// SubagentBlock holds the records of sub-agent tools and appends them as
	// one block after their parent's result, as Claude Code sidechains are.
	SubagentBlock Fault = "subagent-block"
	// Collapse writes each tool's call, progress and result as one
	// tool_lifecycle record, at result time.
	Collapse Fault = "collapse"
	// Dup writes some records twice, as a retry after a failed write does.
	Dup Fault = "dup"
	// Torn cuts the last line short, as a crash mid-write does.
	Torn Fault = "torn"
	// Kill stops the writer part-way through, as a killed process does:
	// calls stay unanswered and buffered records are lost.
	Kill Fault = "kill"
	// NoSeq writes no sequence numbers.
	NoSeq Fault = "no-seq"
	// NoParent writes no parent links.
	NoParent Fault = "no-parent"
)

// Trace lists the trace faults, in the order reports show them. Treat it
// as read-only.
var Trace = List{
	Order, Cancel, CancelBeforeResult, UnknownID, DuplicateResult, MissingResult,
	ResultBeforeStart, EmptyID, ReusedIDBatch, ReusedIDTurns, IDIsName, SameName,
	ProgressAfterResult, LateResult, ProgressBurst, Reconnect, Crash,
}

// Log lists the log faults, in the order reports show them. Treat it as
// read-only.
var Log = List{Ties, LateText, SubagentBlock, Collapse, Dup, Torn, Kill, NoSeq, NoParent}

// All returns every fault: the trace faults, then the log faults. The
// caller owns the returned list.
func All() List { return append(slices.Clone(Trace), Log...) }

// IsLog reports whether f is a log (persistence) fault.
func (f Fault) IsLog() bool { return slices.Contains(Log, f) }

// Valid reports whether f is a fault this package knows.
func (f Fault) Valid() bool { return slices.Contains(Trace, f) || f.IsLog() }

// List is a list of faults: a flag's value, the faults a simulator may
// switch on, the log faults a writer applies.
type List []Fault

// String writes the list the way [Parse] reads it: "none" when empty,
// "all" when it is exactly [All], else the names joined by commas.
func (l List) String() string {
	switch {
	case len(l) == 0:
		return "none"
	case slices.Equal(l, All()):
		return "all"
	}
	return l.Join(",")
}

// Join writes every name, separated by sep, with no abbreviation ("" when
// empty): for help texts and for header fields that omit an empty list.
func (l List) Join(sep string) string {
	var b strings.Builder
	for i, f := range l {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(f))
	}
	return b.String()
}

// Has reports whether f is in the list.
func (l List) Has(f Fault) bool { return slices.Contains(l, f) }

// Log returns the log faults of the list, in its order.
func (l List) Log() List {
	var out List
	for _, f := range l {
		if f.IsLog() {
			out = append(out, f)
		}
	}
	return out
}

// UnknownError is returned by [Parse] for a name it does not know.
type UnknownError struct{ Name string }

// Error names the unknown fault and lists the valid ones.
func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown fault %q (known: all, none, %s)", e.Name, All().Join(", "))
}

// Parse reads a comma-separated fault list. "all" means every fault; ""
// and "none" mean none. Spaces around names are ignored and duplicates
// dropped; the result keeps the order of [All]. An unknown name gives an
// [*UnknownError].
func Parse(s string) (List, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "none":
		return nil, nil
	case "all":
		return All(), nil
	}
	want := map[Fault]bool{}
	for _, name := range strings.Split(s, ",") {
		f := Fault(strings.TrimSpace(name))
		if !f.Valid() {
			return nil, &UnknownError{Name: string(f)}
		}
		want[f] = true
	}
	var out List
	for _, f := range All() {
		if want[f] {
			out = append(out, f)
		}
	}
	return out, nil
}
