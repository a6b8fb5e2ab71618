package timeline

// Format identifies the timeline JSON encoding.
const Format = "toolsim-timeline/1"

// Timeline is an engine's view of a trace after some prefix of its events.
type Timeline struct {
	Diagnostics []Diagnostic // anomalies, in the order they were found
	Items       []*Item      // top-level items in display order
	Now         int64        // t of the last applied event
}

// ItemKind names what an item shows.
type ItemKind string

// Item kinds.
const (
	ItemUser       ItemKind = "user"
	ItemAssistant  ItemKind = "assistant"
	ItemThinking   ItemKind = "thinking"
	ItemTool       ItemKind = "tool"
	ItemToolGroup  ItemKind = "tool_group"
	ItemMetaTool   ItemKind = "meta_tool"
	ItemNotice     ItemKind = "notice"
	ItemSeparator  ItemKind = "separator"
	ItemCompaction ItemKind = "compaction" // the conversation was compacted; Text is the summary
)

// Notice levels.
const (
	NoticeInterrupted = "interrupted" // the user cancelled the turn
	NoticeError       = "error"       // a stream-level error event
)

// Item is one entry of the timeline. Which fields are used depends on Kind:
// Text for user, assistant, thinking, notice and separator; Interrupted for
// assistant; Level for notice; Tool for tool and meta_tool; Tools and Batch
// for tool_group.
//
// Fields are declared in the order of their JSON keys.
type Item struct {
	Batch       string   `json:"batch,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
	Kind        ItemKind `json:"kind"`
	Level       string   `json:"level,omitempty"`
	Text        string   `json:"text,omitempty"`
	Tool        *Tool    `json:"tool,omitempty"`
	Tools       []*Tool  `json:"tools,omitempty"`

	// Version changes whenever the item or anything inside it changes.
	Version uint64 `json:"-"`
}

// Status is where a tool is in its life.
type Status string

// Tool statuses. Allowed moves: running → pending (permission asked),
// pending → running (granted), pending → denied, and any live status to ok,
// failed or interrupted. Terminal statuses never change.
const (
	StatusPending     Status = "pending"
	StatusRunning     Status = "running"
	StatusOK          Status = "ok"
	StatusFailed      Status = "failed"
	StatusInterrupted Status = "interrupted"
	StatusDenied      Status = "denied"
)

// Terminal reports whether s is a final status.
func (s Status) Terminal() bool {
	switch s {
	case StatusOK, StatusFailed, StatusInterrupted, StatusDenied:
		return true
	}
	return false
}

// Tool is one tool call. Fields are declared in the order of their JSON keys.
type Tool struct {
	Batch      string      `json:"batch,omitempty"`
	Children   []*Item     `json:"children,omitempty"`    // tools whose parent is this tool, grouped as at top level
	Delegation *Delegation `json:"delegation,omitempty"`  // live delegation steps, when progress carried them
	DurationMS int64       `json:"duration_ms,omitempty"` // terminal tools: the result's duration_ms, else EndT-StartT
	EndT       int64       `json:"end_t,omitempty"`       // t when it became terminal; meaningless while live
	Error      string      `json:"error,omitempty"`       // error text of a failed tool
	ID         string      `json:"id"`
	Meta       bool        `json:"meta,omitempty"` // a meta tool (todo lists, plans): never grouped
	Name       string      `json:"name"`
	Output     string      `json:"output,omitempty"` // streamed output, replaced by the result's output when it has one
	Parent     string      `json:"parent,omitempty"`
	StartT     int64       `json:"start_t"`
	Status     Status      `json:"status"`
	Summary    string      `json:"summary,omitempty"`    // from args, uncut; the renderer fits it to the width
	UpdateSeq  int         `json:"update_seq,omitempty"` // progress updates applied so far (seed 003)

	// Unfinished is set on a tool the end-of-stream rule interrupted (the
	// input ended before it finished, diagnostic unfinished_at_end), so
	// that a renderer can tell it from a user abort. Like Item.Version it
	// is not part of the JSON contract: the diagnostic is.
	Unfinished bool `json:"-"`
}

// Delegation is the seed 003 "agent_delegation" progress payload.
type Delegation struct {
	ActiveID string `json:"active_id,omitempty"`
	Mode     string `json:"mode"` // single, parallel or chain
	Steps    []Step `json:"steps"`
}

// Step statuses of a delegation step.
const (
	StepPending = "pending"
	StepRunning = "running"
	StepOK      = "ok"
	StepError   = "error"
)

// Step is one delegated task.
type Step struct {
	Agent   string `json:"agent"`
	ID      string `json:"id"`
	Preview string `json:"preview,omitempty"`
	Status  string `json:"status"`
	Task    string `json:"task"`
}

// Diagnostic is an anomaly an engine noticed: the seq of the event at fault,
// a code from the list in docs/timeline.md, and the tool id involved.
type Diagnostic struct {
	Code string `json:"code"`
	ID   string `json:"id"`
	Seq  int64  `json:"seq"`
}

// Diagnostic codes.
const (
	DiagUnknownID         = "unknown_id"
	DiagDuplicateDone     = "duplicate_done"
	DiagLateProgress      = "late_progress"
	DiagLateDone          = "late_done"
	DiagDoneBeforeStart   = "done_before_start"
	DiagDuplicateStart    = "duplicate_start"
	DiagMissingID         = "missing_id"
	DiagBadDetails        = "bad_details"
	DiagUnfinishedTurnEnd = "unfinished_at_turn_end"
	DiagUnfinishedAtEnd   = "unfinished_at_end"
	DiagUnknownParent     = "unknown_parent"
)

// Live reports whether any tool in the item (children included) is not yet
// terminal.
func (it *Item) Live() bool {
	found := false
	it.EachTool(func(t *Tool) bool {
		found = !t.Status.Terminal()
		return !found
	})
	return found
}

// EachTool calls fn for every tool in the item, depth first, children after
// their parent, until fn returns false. It reports whether it visited all.
func (it *Item) EachTool(fn func(*Tool) bool) bool {
	if it.Tool != nil && !it.Tool.each(fn) {
		return false
	}
	for _, t := range it.Tools {
		if !t.each(fn) {
			return false
		}
	}
	return true
}

func (t *Tool) each(fn func(*Tool) bool) bool {
	if !fn(t) {
		return false
	}
	for _, c := range t.Children {
		if !c.EachTool(fn) {
			return false
		}
	}
	return true
}

// Elapsed returns the duration to show for t when the clock reads now:
// DurationMS once terminal, now-StartT while live.
func (t *Tool) Elapsed(now int64) int64 {
	if t.Status.Terminal() {
		return t.DurationMS
	}
	return max(now-t.StartT, 0)
}
