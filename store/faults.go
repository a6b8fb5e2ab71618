package store

import (
	"fmt"
	"slices"
	"strings"
)

// Fault is one way a real log breaks. Faults combine; the seed drives every
// random choice they make.
type Fault string

// The persistence faults (SPEC §4, seed 004).
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

// AllFaults lists every fault.
var AllFaults = []Fault{Ties, LateText, SubagentBlock, Collapse, Dup, Torn, Kill, NoSeq, NoParent}

// ParseFaults reads a comma-separated list such as "late-text,no-seq".
// "all" means every fault; "" means none.
func ParseFaults(list string) ([]Fault, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	if list == "all" {
		return slices.Clone(AllFaults), nil
	}
	var out []Fault
	for _, name := range strings.Split(list, ",") {
		f := Fault(strings.TrimSpace(name))
		if !slices.Contains(AllFaults, f) {
			return nil, fmt.Errorf("unknown fault %q (known: %s)", f, joinFaults(AllFaults))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

func joinFaults(fs []Fault) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}
