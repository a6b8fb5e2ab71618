package engine

import (
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// DefaultMetaTools are the tool names treated as meta tools unless
// Options.MetaTools says otherwise.
var DefaultMetaTools = []string{"todowrite", "TodoWrite", "todo_write", "update_plan"}

// Options configure an Engine.
type Options struct {
	// MetaTools names the meta tools, which never join a group. Nil means
	// DefaultMetaTools; an empty non-nil slice means none.
	MetaTools []string
}

// Engine is the reference live engine. The zero value is not usable; call New.
// An Engine is not safe for concurrent use.
type Engine struct {
	meta    map[string]bool
	tl      timeline.Timeline
	version uint64

	ids     map[string]*slot          // pairing index
	live    []*toolRef                // tools started, in start order; terminal ones are skipped
	early   map[string][]*event.Event // results that arrived before their start
	lastSeq int64

	// Items bumped since the last ChangedItems call, once it was first
	// called; spare is the other buffer of the pair.
	tracking       bool
	touched, spare []*timeline.Item

	textOpen  int  // 1 + the index of the assistant or thinking item still growing; 0 when none
	run       run  // the current run of consecutive tool_start events
	cancelled bool // the current turn was cancelled
	turnRole  string

	own owner // which items and tools this engine may change in place (clone.go)

	// The growing output of each live tool whose streamed output grew
	// long (output.go). Only this engine appends to these builders.
	outputs map[*timeline.Tool]*strings.Builder
}

// slot holds every tool that used one id.
type slot struct {
	live []*toolRef  // not yet terminal, oldest first: results pair FIFO
	last *toolRef    // the most recently started
	one  [1]*toolRef // live's first array: most ids name one tool
}

// toolRef locates a tool in the timeline by position: the item's index in
// its container and the tool's index in the item. Items are only ever
// appended to a container and tools to an item, so a position never
// changes, and a toolRef is never changed once made: clones share it.
type toolRef struct {
	parent *toolRef       // the tool it runs under; nil at top level
	tool   *timeline.Tool // the tool as made: for an engine never cloned, which never copies one
	item   int32          // the item's index in its container: the timeline's items or the parent's children
	pos    int32          // the tool's index in the item: 0 for Item.Tool, else in Item.Tools
}

// madeTool is a new tool and its ref, made in one allocation.
type madeTool struct {
	tool timeline.Tool
	ref  toolRef
}

// root returns the index of the top-level item holding r's tool.
func (r *toolRef) root() int {
	for r.parent != nil {
		r = r.parent
	}
	return int(r.item)
}

// run is an open grouping run: the item that the next tool_start may join.
// The zero run is none.
type run struct {
	open   bool
	parent *toolRef // whose children hold the item; nil at top level
	item   int32    // the item's index there
}

// New returns an engine with an empty timeline.
func New(opts Options) *Engine {
	names := opts.MetaTools
	if names == nil {
		names = DefaultMetaTools
	}
	meta := make(map[string]bool, len(names))
	for _, n := range names {
		meta[n] = true
	}
	return &Engine{meta: meta, ids: make(map[string]*slot), early: make(map[string][]*event.Event)}
}

// Timeline returns the live timeline. It is owned by the engine: read it,
// do not modify it, and do not keep it across calls to Apply if you need a
// snapshot (encode it instead).
func (e *Engine) Timeline() *timeline.Timeline { return &e.tl }

// CopiesEvents reports true: the engine copies what it keeps of an event
// (a result that arrives before its start), so the caller may reuse the
// event's value once Apply returns (the optional method of harness.Engine).
func (e *Engine) CopiesEvents() bool { return true }

// Apply applies one event. Events must come in trace order.
func (e *Engine) Apply(ev *event.Event) {
	e.tl.Now = ev.T
	e.lastSeq = ev.Seq
	if ev.Kind != event.KindToolStart && ev.Kind != event.KindToolUpdate && ev.Kind.Known() {
		e.run = run{} // unknown kinds only move the clock, and an update only amends a call: they do not end a run
	}
	switch ev.Kind {
	case event.KindTurnStart:
		e.turnStart(ev)
	case event.KindTurnEnd:
		e.turnEnd(ev)
	case event.KindUser:
		e.closeText()
		e.push(nil, &timeline.Item{Kind: timeline.ItemUser, Text: ev.Text})
	case event.KindText:
		e.appendText(timeline.ItemAssistant, ev.Text)
	case event.KindThinking:
		e.appendText(timeline.ItemThinking, ev.Text)
	case event.KindToolStart:
		e.toolStart(ev)
	case event.KindToolUpdate:
		e.toolUpdate(ev)
	case event.KindToolProgress:
		e.toolProgress(ev)
	case event.KindToolDone:
		e.toolDone(ev)
	case event.KindPermission:
		e.permission(ev)
	case event.KindCancel:
		e.cancel(ev)
	case event.KindError:
		e.closeText()
		e.push(nil, &timeline.Item{Kind: timeline.ItemNotice, Level: timeline.NoticeError, Text: ev.Message})
	case event.KindCompact:
		e.closeText()
		e.push(nil, &timeline.Item{Kind: timeline.ItemCompaction, Text: ev.Text})
	}
}

// Finish ends the stream: results whose start never came are reported as
// unknown_id, and tools still live become interrupted with diagnostic
// unfinished_at_end, so that no spinner outlives the trace.
func (e *Engine) Finish() {
	e.flushEarly()
	e.interruptLive(e.tl.Now, timeline.DiagUnfinishedAtEnd, e.lastSeq)
	e.closeText()
	e.run = run{}
}

// Live returns the ids of the tools not yet in a terminal status, in start
// order.
func (e *Engine) Live() []string {
	var ids []string
	for _, ref := range e.live {
		if t := e.tool(ref); !t.Status.Terminal() {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// Waiting returns how many results are held until their tool_start arrives
// (done_before_start); turn_end or Finish reports those that never match.
func (e *Engine) Waiting() int {
	n := 0
	for _, evs := range e.early {
		n += len(evs)
	}
	return n
}

func (e *Engine) diag(seq int64, code, id string) {
	e.tl.Diagnostics = append(e.tl.Diagnostics, timeline.Diagnostic{Seq: seq, Code: code, ID: id})
}

// bump marks an item as changed.
func (e *Engine) bump(it *timeline.Item) {
	e.version++
	it.Version = e.version
	if e.tracking {
		e.touched = append(e.touched, it)
	}
}

// ChangedItems returns the items added or changed since its previous call
// (nested items may be listed beside the top-level item that holds them,
// and an item may be listed more than once), so that a checker can look
// only at what an event changed. The first call turns the tracking on and
// reports false: it cannot tell what changed before. The slice is valid
// until the next call.
func (e *Engine) ChangedItems() ([]*timeline.Item, bool) {
	if !e.tracking {
		e.tracking = true
		return nil, false
	}
	out := e.touched
	e.touched, e.spare = e.spare[:0], out
	return out, true
}

// push appends a new item to the items of parent (the timeline's own when
// nil) and returns its index.
func (e *Engine) push(parent *toolRef, it *timeline.Item) int {
	e.own.addItem(it)
	e.bump(it)
	items := e.writableItems(parent)
	*items = append(*items, it)
	return len(*items) - 1
}
