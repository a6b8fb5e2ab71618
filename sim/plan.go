package sim

import (
	"encoding/json"

	"github.com/toolsim/toolsim/event"
)

// scenarioPlan is a scenario before scheduling: what the user and the model do,
// turn by turn. The scheduler turns it into events on a virtual clock.
type scenarioPlan struct {
	Turns []turnPlan
}

// turnPlan is one user message and the assistant turn answering it.
type turnPlan struct {
	User     string      // the user's message, sent in a user turn first
	Thinking []string    // thinking deltas
	Text     []string    // assistant text deltas before the tools
	Batches  []batchPlan // batches of parallel tool calls, text between them
	Closing  string      // assistant text after the last batch ("" for none)
	Cancel   *cancelPlan
	Error    string // a stream-level error after the first batch ("" for none)
}

// cancelPlan says where the user interrupts a turn.
type cancelPlan struct {
	Batch int // index of the batch the cancel lands in
	// At is where in the batch, as a fraction of its span (0..1].
	At float64
	// BeforeResultOf, when ≥ 0, puts the cancel between that tool's last
	// progress and its result instead.
	BeforeResultOf int
	// Late delivers the results the cancel cut off anyway, after the cancel;
	// AfterTurnEnd delivers them after the turn's end instead.
	Late, AfterTurnEnd bool
	// LateProgress delivers one cut-off progress update after the cancel
	// ([ShapeProgressAfterInterrupt]).
	LateProgress bool
	// InText puts the cancel in the turn's opening text, before any batch
	// ([ShapeCancelInText]); Batch is then ignored.
	InText bool
}

// batchPlan is a set of tool calls the model issues at once.
type batchPlan struct {
	ID     string // the source's batch id; "" when it has none
	Tools  []toolPlan
	Strays []strayPlan // events for ids that are not (yet) tools of the batch
	// Adjacent drops the text between the previous batch and this one, so
	// their items are adjacent ([ShapeAdjacentBatches]).
	Adjacent bool
}

// strayPlan is a tool event whose id matches no started tool: an unknown id, or
// an empty one.
type strayPlan struct {
	Kind event.Kind // tool_progress or tool_done
	ID   string
	At   float64 // where in the batch, as a fraction of its span
}

// outcome is how a tool call ends.
type outcome int

// Outcomes.
const (
	outcomeOK      outcome = iota // a successful result
	outcomeFailed                 // a failed result with an error
	outcomeMissing                // no result ever arrives
)

// permission is the approval flow a tool goes through.
type permission int

// Permissions.
const (
	permissionNone    permission = iota // no prompt
	permissionGranted                   // asked, then granted
	permissionDenied                    // asked, then denied: no result follows
	permissionPending                   // asked, never answered
)

// toolPlan is one planned tool call.
type toolPlan struct {
	ID, Name   string
	Args       json.RawMessage
	Duration   int64 // ms from start to result
	Outcome    outcome
	Progress   int // progress updates before the result
	Permission permission
	Delegation bool       // progress carries seed 003 delegation steps
	Children   []toolPlan // sub-agent calls made under this tool
	// StartAt is when the tool starts, in ms after its batch's first
	// instant: 0 for all but spread batches ([ShapeSpreadStarts]).
	StartAt int64
	// Parent, for a top-level call, is a parent id that never starts
	// ([ShapeUnknownParent]).
	Parent string
	// ReportedMS, when > 0, is the duration_ms the result carries, which
	// disagrees with the clock ([ShapeDurationMismatch]).
	ReportedMS int64
	// Long keeps the tool running past the text and batches that follow
	// its own batch ([ShapeLongRunning]).
	Long bool
	// Outlive makes the children finish after this tool's result
	// ([ShapeParentFirst]); EarlyChild starts the first child before this
	// tool ([ShapeDanglingParent]).
	Outlive, EarlyChild bool
	// Quiet gives a successful result no output, so the streamed output
	// stays; ResultPending delivers the result while a permission is still
	// pending ([ShapeResultWhilePending]).
	Quiet, ResultPending bool

	ResultFirst     bool // the result arrives before the start
	DuplicateResult bool // the result arrives twice
	ProgressAfter   bool // progress arrives after the result
	LateResult      bool // a denied tool's result arrives anyway
	Burst           int  // extra progress updates, all at one instant
}

// size is about how many events the plan schedules to, and how many
// actions its largest batch has, so both are allocated once.
func (p *scenarioPlan) size() (events, batch int) {
	for i := range p.Turns {
		t := &p.Turns[i]
		events += 8 + len(t.Thinking) + len(t.Text) + 2*len(t.Batches)
		for j := range t.Batches {
			n := len(t.Batches[j].Strays)
			for k := range t.Batches[j].Tools {
				n += toolSize(&t.Batches[j].Tools[k])
			}
			events += n
			batch = max(batch, n)
		}
	}
	return events, 2 * batch // room for actions held over from the batch before
}

func toolSize(t *toolPlan) int {
	n := 5 + t.Progress + t.Burst
	for i := range t.Children {
		n += toolSize(&t.Children[i])
	}
	return n
}
