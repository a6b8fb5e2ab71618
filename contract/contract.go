package contract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/fault"
)

// Guarantee names one thing an engine's real upstream never sends.
type Guarantee string

// The guarantees, named as on the command line (--contract) and in the
// protocol's init_ok.
const (
	// KnownIDs: every result, progress update and permission names a call
	// the stream started, and every call has an id.
	KnownIDs Guarantee = "known-ids"
	// CallsFirst: a call's start comes before anything about it (its
	// result, progress, permission, or a sub-agent call under it).
	CallsFirst Guarantee = "calls-first"
	// OneResult: a call gets at most one result, and no progress after it.
	OneResult Guarantee = "one-result"
	// NothingLate: nothing arrives for a call after a cancel, a denial or
	// its turn's end cut it off.
	NothingLate Guarantee = "nothing-late"
	// UniqueIDs: no two calls of one batch (one model response) share an
	// id. A batch is a run of calls with one batch id, or with none, a run
	// of consecutive starts.
	UniqueIDs Guarantee = "unique-ids"
	// FreshIDs: a call id is never reused by a later batch, in the same
	// turn or a later one.
	FreshIDs Guarantee = "fresh-ids"
	// ApprovalFirst: a call that asks for approval runs only once it is
	// answered: no progress or result before the answer.
	ApprovalFirst Guarantee = "approval-first"
	// AnswersAsked: a grant or a denial only answers a pending request.
	AnswersAsked Guarantee = "answers-asked"
	// StepsWait: another batch of calls (the model's next step) starts
	// only once every call of the last batch has ended. A call an earlier
	// turn left open (an approval not answered) does not hold a new turn.
	StepsWait Guarantee = "steps-wait"
	// ResponseFirst: the tools run only once the model's response is
	// complete: no text or thinking while a call runs, and the calls of a
	// batch all start before any of them reports.
	ResponseFirst Guarantee = "response-first"
	// ResultsBeforeEnd: a turn, or the stream, ends only once every call
	// has its result or was cut off (a call awaiting approval may stay
	// open).
	ResultsBeforeEnd Guarantee = "results-before-end"
	// ApprovedNext: a call that asked for approval runs in the next
	// request, which carries the answers back: only once every other call
	// of its batch has ended or been answered (the AI SDK's useChat sends
	// the approvals when the response that asked for them is over).
	ApprovedNext Guarantee = "approved-next"
)

// All lists every guarantee, in the order reports show them. Treat it as
// read-only.
var All = List{KnownIDs, CallsFirst, OneResult, NothingLate, UniqueIDs, FreshIDs, ApprovalFirst, AnswersAsked, StepsWait, ResponseFirst, ResultsBeforeEnd, ApprovedNext}

// Executor is the contract of an agent runtime that runs its own tools
// and asks its model again only once a step's calls have ended (the OpenAI
// Agents runner, a LangGraph ToolNode graph): every guarantee but
// NothingLate, since a tool that ignores a cancel may still finish after
// it, and ApprovedNext, which is how one approval flow resumes (an engine
// that has it adds it). [Parse] reads it as "executor".
var Executor = List{KnownIDs, CallsFirst, OneResult, UniqueIDs, FreshIDs, ApprovalFirst, AnswersAsked, StepsWait, ResponseFirst, ResultsBeforeEnd}

// Describe says what an upstream with the guarantee never sends.
func (g Guarantee) Describe() string {
	switch g {
	case KnownIDs:
		return "a result, progress or permission for an id it never started, or a call without an id"
	case CallsFirst:
		return "anything about a call before the call itself"
	case OneResult:
		return "a second result for a call, or progress after its result"
	case NothingLate:
		return "a result, progress or permission for a call a cancel, a denial or its turn's end cut off"
	case UniqueIDs:
		return "two calls of one batch with one id"
	case FreshIDs:
		return "a call id an earlier batch used"
	case ApprovalFirst:
		return "progress or a result for a call whose approval is not answered yet"
	case AnswersAsked:
		return "a grant or a denial that answers no pending request"
	case StepsWait:
		return "another batch while a call of the last batch runs"
	case ResponseFirst:
		return "text or thinking while a call runs, or a call of a batch after another of it reported"
	case ResultsBeforeEnd:
		return "the end of a turn or of the stream while a call awaits its result"
	case ApprovedNext:
		return "progress or a result for an approved call while another call of its batch runs or awaits its answer"
	}
	return "?"
}

// Faults lists the trace faults that produce only inputs g rules out: the
// simulator never switches them on under g.
func (g Guarantee) Faults() fault.List {
	switch g {
	case KnownIDs:
		return fault.List{fault.UnknownID, fault.EmptyID, fault.ResultBeforeStart}
	case CallsFirst:
		return fault.List{fault.ResultBeforeStart}
	case OneResult:
		return fault.List{fault.DuplicateResult, fault.ProgressAfterResult}
	case NothingLate:
		return fault.List{fault.LateResult, fault.ProgressAfterResult}
	case UniqueIDs:
		return fault.List{fault.ReusedIDBatch, fault.IDIsName}
	case FreshIDs:
		return fault.List{fault.ReusedIDTurns, fault.IDIsName}
	case ResponseFirst, ResultsBeforeEnd, ApprovedNext:
		return fault.List{fault.MissingResult} // a call that never ends holds what follows it too
	}
	return nil
}

// List is a contract's guarantees. The empty list guarantees nothing: an
// engine that declares none is checked as before contracts existed.
type List []Guarantee

// Has reports whether g is in the list.
func (l List) Has(g Guarantee) bool { return slices.Contains(l, g) }

// HasAll reports whether every guarantee of gs is in the list.
func (l List) HasAll(gs List) bool {
	for _, g := range gs {
		if !l.Has(g) {
			return false
		}
	}
	return true
}

// Without returns the list but the guarantees gs, in the list's order: a
// preset less what a library does not guarantee
// (contract.Executor.Without(contract.UniqueIDs)). The list is not changed.
func (l List) Without(gs ...Guarantee) List {
	var out List
	for _, g := range l {
		if !slices.Contains(gs, g) {
			out = append(out, g)
		}
	}
	return out
}

// String writes the list the way [Parse] reads it: "none" when empty,
// else the names joined by commas.
func (l List) String() string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l.Names(), ",")
}

// Names returns the guarantees' names, for JSON and the protocol.
func (l List) Names() []string {
	out := make([]string, len(l))
	for i, g := range l {
		out[i] = string(g)
	}
	return out
}

// RulesOut reports whether the list switches fault f off.
func (l List) RulesOut(f fault.Fault) bool { return l.RuledOutBy(f) != "" }

// RuledOutBy names the first guarantee of the list that switches fault f
// off, or "".
func (l List) RuledOutBy(f fault.Fault) Guarantee {
	for _, g := range l {
		if g.Faults().Has(f) {
			return g
		}
	}
	return ""
}

// Allow returns the faults of fs the list does not rule out, in order.
func (l List) Allow(fs fault.List) fault.List {
	var out fault.List
	for _, f := range fs {
		if !l.RulesOut(f) {
			out = append(out, f)
		}
	}
	return out
}

// UnknownError is returned by [Parse] and [ParseBehaviours] for a name
// they do not know.
type UnknownError struct {
	What, Name string
	Known      []string
}

// Error names the unknown name and lists the valid ones.
func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown %s %q (known: %s)", e.What, e.Name, strings.Join(e.Known, ", "))
}

// Parse reads a comma-separated guarantee list: "" and "none" mean none,
// "all" every guarantee, "executor" the [Executor] preset (it may be
// combined with names). Duplicates are dropped and the result keeps the
// order of [All]. An unknown name gives an [*UnknownError].
func Parse(s string) (List, error) {
	return ParseNames(strings.Split(strings.TrimSpace(s), ","))
}

// ParseNames reads guarantee names one by one, as the protocol's init_ok
// sends them; the presets of [Parse] are accepted too.
func ParseNames(names []string) (List, error) {
	want := map[Guarantee]bool{}
	for _, n := range names {
		switch n = strings.TrimSpace(n); n {
		case "", "none":
		case "all":
			for _, g := range All {
				want[g] = true
			}
		case "executor":
			for _, g := range Executor {
				want[g] = true
			}
		default:
			if !All.Has(Guarantee(n)) {
				return nil, &UnknownError{What: "guarantee", Name: n, Known: append([]string{"none", "all", "executor"}, All.Names()...)}
			}
			want[Guarantee(n)] = true
		}
	}
	var out List
	for _, g := range All {
		if want[g] {
			out = append(out, g)
		}
	}
	return out, nil
}
