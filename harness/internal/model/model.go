package model

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// Config says what the model expects of the engine under test.
type Config struct {
	// MetaTools names the meta tools, which stand alone (SPEC §2).
	MetaTools []string
	// NoGrouping expects every tool on its own row: no groups, and meta
	// tools shown as ordinary tools.
	NoGrouping bool
	// ToolRows expects tool rows only: text, thinking, user, notice,
	// separator and compaction items are followed but never shown, for
	// engines whose screen reader reads only the calls (a real agent
	// app's terminal, package agent).
	ToolRows bool
}

// Model follows a trace and knows what an engine must show after each
// event. The zero value is not usable; call New.
type Model struct {
	cfg       Config
	meta      map[string]bool
	top       []*item
	ids       map[string]*slot
	early     map[string][]event.Event // results waiting for their start
	order     []*tool                  // tools not yet known terminal, in start order
	run       *runState
	role      string
	cancelled bool
	lastSeq   int64
	now       int64
	started   int   // tools started so far
	openText  *item // the text or thinking item still growing
	diags     []timeline.Diagnostic
	changed   []int    // top-level items changed by the last call
	members   []member // group members changed by the last call
	live      int      // tools not yet terminal
}

type tool struct {
	id, name, batch string
	status          timeline.Status
	resulted        bool // ended by a result
	updates         int
	output, err     string
	startT, endT    int64
	duration        int64
	children        []*item
	n               int   // place in start order
	root            int   // index of the top-level item that holds it
	pos             int   // place among the tools of the item that holds it
	top             *tool // the tool of the top-level item it is under (itself at top level)
}

// member is a tool of a top-level item, by the item's index and the tool's
// place in it.
type member struct{ item, pos int }

type itemKind uint8

const (
	other itemKind = iota // text, user, notice, separator: anything not a tool
	tools                 // one tool, or a group once it holds two
	metaItem
)

type item struct {
	kind  itemKind
	batch string
	tools []*tool
	// Non-tool items: what the item shows (user, assistant, thinking,
	// notice, separator), its text, a notice's level, and whether
	// assistant text was cut off by a cancel.
	what        timeline.ItemKind
	text, level string
	interrupted bool
}

type slot struct {
	live   []*tool // not yet terminal, oldest first
	last   *tool
	starts int // tool_start events with this id
}

type runState struct {
	container *[]*item
	item      *item
	at        int // the item's index in its container
}

// defaultMetaTools are the meta tool names of SPEC §2 (the model keeps its
// own copy of engine.DefaultMetaTools, as it is written independently).
var defaultMetaTools = []string{"todowrite", "TodoWrite", "todo_write", "update_plan"}

// MetaTools is names, or the default set of SPEC §2 when names is nil (an
// empty, non-nil list names no meta tool).
func MetaTools(names []string) []string {
	if names == nil {
		return defaultMetaTools
	}
	return names
}

// New returns a model of an empty trace; a nil Config.MetaTools means the
// default set (MetaTools).
func New(cfg Config) *Model {
	m := &Model{cfg: cfg, meta: map[string]bool{}, ids: map[string]*slot{}, early: map[string][]event.Event{}}
	for _, n := range MetaTools(cfg.MetaTools) {
		m.meta[n] = true
	}
	return m
}

// Len is the number of top-level items.
func (m *Model) Len() int { return len(m.top) }

// Changed lists the top-level items the last Apply or Finish added or
// changed, in increasing order. The slice is the model's own: read it
// before the next call.
func (m *Model) Changed() []int { return m.changed }

// Diagnostics lists the anomalies the trace holds so far, in the order
// found.
func (m *Model) Diagnostics() []timeline.Diagnostic { return m.diags }

// LastSeq is the seq of the last event applied.
func (m *Model) LastSeq() int64 { return m.lastSeq }

// Live counts the tools not yet terminal.
func (m *Model) Live() int { return m.live }

// touch records that top-level item i changed.
func (m *Model) touch(i int) {
	for k := len(m.changed) - 1; k >= 0; k-- {
		switch {
		case m.changed[k] == i:
			return
		case m.changed[k] < i:
			m.changed = append(m.changed, 0)
			copy(m.changed[k+2:], m.changed[k+1:])
			m.changed[k+1] = i
			return
		}
	}
	m.changed = append(m.changed, 0)
	copy(m.changed[1:], m.changed)
	m.changed[0] = i
}

// touchTool records that tool t changed: its top-level item, and which
// of that item's tools it is under.
func (m *Model) touchTool(t *tool) {
	m.touch(t.root)
	m.members = append(m.members, member{t.root, t.top.pos})
}

// Starts counts the tool_start events of each id so far.
func (m *Model) Starts() map[string]int {
	out := make(map[string]int, len(m.ids))
	for id, s := range m.ids {
		if s.starts > 0 {
			out[id] = s.starts
		}
	}
	return out
}

// Tools counts the tools started so far.
func (m *Model) Tools() int { return m.started }

// GroupSize is how many tools top-level item i groups (0 when it is not a
// group).
func (m *Model) GroupSize(i int) int {
	if it := m.top[i]; it.kind == tools && len(it.tools) > 1 {
		return len(it.tools)
	}
	return 0
}

// ChangedMembers appends the places, in increasing order and once each,
// of the tools of top-level item i that the last Apply or Finish changed
// (or changed something under).
func (m *Model) ChangedMembers(dst []int, i int) []int {
	n := len(dst)
	for _, c := range m.members {
		if c.item == i {
			dst = append(dst, c.pos)
		}
	}
	slices.Sort(dst[n:])
	return slices.Compact(dst)
}

func (m *Model) diag(seq int64, code, id string) {
	m.diags = append(m.diags, timeline.Diagnostic{Seq: seq, Code: code, ID: id})
}

// other appends a non-tool item at top level.
func (m *Model) other(what timeline.ItemKind, text, level string) *item {
	it := &item{kind: other, what: what, text: text, level: level}
	if m.cfg.ToolRows {
		return it // followed (open text), never shown
	}
	m.top = append(m.top, it)
	m.touch(len(m.top) - 1)
	return it
}

// lastIs reports whether it is the last top-level item.
func (m *Model) lastIs(it *item) bool {
	return it != nil && len(m.top) > 0 && m.top[len(m.top)-1] == it
}

// text grows the open text item of the same kind while it is still the
// last item; anything shown in between starts a new one.
func (m *Model) text(what timeline.ItemKind, text string) {
	if o := m.openText; o != nil && o.what == what && m.lastIs(o) {
		o.text += text
		m.touch(len(m.top) - 1)
		return
	}
	m.openText = m.other(what, text, "")
}

// Apply follows one event.
func (m *Model) Apply(ev *event.Event) {
	m.changed, m.members = m.changed[:0], m.members[:0]
	m.lastSeq, m.now = ev.Seq, ev.T
	if ev.Kind != event.KindToolStart && ev.Kind != event.KindToolUpdate && ev.Kind.Known() {
		m.run = nil // any other event ends a run of starts; unknown kinds only move the clock, an update only amends a call
	}
	switch ev.Kind {
	case event.KindTurnStart:
		m.role, m.cancelled, m.openText = ev.Role, false, nil
	case event.KindTurnEnd:
		m.turnEnd(ev)
	case event.KindUser:
		m.openText = nil
		m.other(timeline.ItemUser, ev.Text, "")
	case event.KindText:
		m.text(timeline.ItemAssistant, ev.Text)
	case event.KindThinking:
		m.text(timeline.ItemThinking, ev.Text)
	case event.KindError:
		m.openText = nil
		m.other(timeline.ItemNotice, ev.Message, timeline.NoticeError)
	case event.KindCompact:
		m.openText = nil
		m.other(timeline.ItemCompaction, ev.Text, "")
	case event.KindToolUpdate:
		if t := m.liveTool(ev, timeline.DiagLateProgress); t != nil && ev.Name != "" {
			t.name = ev.Name
			m.touchTool(t)
		}
	case event.KindToolStart:
		m.start(ev)
	case event.KindToolProgress:
		m.progress(ev)
	case event.KindToolDone:
		m.done(ev)
	case event.KindPermission:
		m.permission(ev)
	case event.KindCancel:
		m.cancel(ev)
	}
}

func (m *Model) turnEnd(ev *event.Event) {
	m.openText = nil
	m.flushEarly()
	m.interruptAll(timeline.DiagUnfinishedTurnEnd, ev.Seq)
	if m.role != event.RoleUser && !m.cancelled {
		m.other(timeline.ItemSeparator, "Turn complete", "")
	}
	m.role, m.cancelled = "", false
}

// cancel interrupts every live tool, marks assistant text still streaming
// as interrupted, and shows the Interrupted notice.
func (m *Model) cancel(ev *event.Event) {
	if o := m.openText; o != nil && o.what == timeline.ItemAssistant && m.lastIs(o) {
		o.interrupted = true
		m.touch(len(m.top) - 1)
	}
	m.openText = nil
	m.interruptAll("", ev.Seq)
	m.other(timeline.ItemNotice, ev.Reason, timeline.NoticeInterrupted)
	m.cancelled = true
}

// Finish applies the end-of-stream rule.
func (m *Model) Finish() {
	m.changed, m.members = m.changed[:0], m.members[:0]
	m.openText = nil
	m.flushEarly()
	m.interruptAll(timeline.DiagUnfinishedAtEnd, m.lastSeq)
	m.run = nil
}
