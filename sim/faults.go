package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/store"
)

// Fault names one fault knob of SPEC §6. Trace faults change the events the
// scheduler emits; log faults (the [store] faults of SPEC §4) change the
// persisted log the reconstruction oracle rebuilds; [Reconnect] makes the
// harness rebuild a prefix of the trace and go on live.
type Fault string

// The trace faults.
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
)

// TraceFaults lists the trace faults, in the order reports show them.
var TraceFaults = []Fault{
	Order, Cancel, CancelBeforeResult, UnknownID, DuplicateResult, MissingResult,
	ResultBeforeStart, EmptyID, ReusedIDBatch, ReusedIDTurns, IDIsName, SameName,
	ProgressAfterResult, LateResult, ProgressBurst, Reconnect,
}

// LogFaults lists the persistence faults, named as in package store.
func LogFaults() []Fault {
	out := make([]Fault, len(store.AllFaults))
	for i, f := range store.AllFaults {
		out[i] = Fault(f)
	}
	return out
}

// AllFaults lists every fault: the trace faults, then the log faults.
func AllFaults() []Fault { return append(slices.Clone(TraceFaults), LogFaults()...) }

// IsLog reports whether f is a persistence fault.
func (f Fault) IsLog() bool { return slices.Contains(store.AllFaults, store.Fault(f)) }

// UnknownFaultError is returned by ParseFaults for a name it does not know.
type UnknownFaultError struct{ Name string }

// Error names the unknown fault and lists the known ones.
func (e *UnknownFaultError) Error() string {
	names := make([]string, 0, len(TraceFaults)+len(store.AllFaults))
	for _, f := range AllFaults() {
		names = append(names, string(f))
	}
	return fmt.Sprintf("unknown fault %q (known: all, none, %s)", e.Name, strings.Join(names, ", "))
}

// ParseFaults reads a comma-separated fault list. "all" means every fault,
// "" and "none" mean none. Duplicates are dropped; the result keeps the
// order of [AllFaults].
func ParseFaults(list string) ([]Fault, error) {
	list = strings.TrimSpace(list)
	switch list {
	case "", "none":
		return nil, nil
	case "all":
		return AllFaults(), nil
	}
	want := map[Fault]bool{}
	for _, name := range strings.Split(list, ",") {
		f := Fault(strings.TrimSpace(name))
		if !slices.Contains(AllFaults(), f) {
			return nil, &UnknownFaultError{Name: string(f)}
		}
		want[f] = true
	}
	var out []Fault
	for _, f := range AllFaults() {
		if want[f] {
			out = append(out, f)
		}
	}
	return out, nil
}

// FormatFaults writes a fault list the way ParseFaults reads it: "none",
// "all" for every fault, else the names joined by commas.
func FormatFaults(fs []Fault) string {
	if len(fs) == 0 {
		return "none"
	}
	if slices.Equal(fs, AllFaults()) {
		return "all"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	return strings.Join(names, ",")
}

// faultSet is a set of faults switched on for one scenario.
type faultSet map[Fault]bool

func (s faultSet) list() []Fault {
	var out []Fault
	for _, f := range AllFaults() {
		if s[f] {
			out = append(out, f)
		}
	}
	return out
}
