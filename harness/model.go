package harness

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// model is the harness's own account of what any engine must show after
// each event, written from SPEC §2 and the decisions docs/timeline.md
// records where the spec is open (when unknown_id is reported, which
// anomaly a late permission is, and so on): which tools exist, how they are
// grouped and nested, each one's status, output and progress count, the
// text, notice and separator items around them, and the diagnostics. It
// shares no code with the reference engine, so a bug there is not repeated
// here. It ignores what it cannot judge independently (times, summaries,
// delegation payloads).
type model struct {
	meta      map[string]bool
	top       []*mItem
	ids       map[string]*mSlot
	early     map[string][]event.Event // results waiting for their start
	order     []*mTool                 // every tool, in start order
	run       *mRun
	role      string
	cancelled bool
	lastSeq   int64
	started   int    // tools started so far
	openText  *mItem // the text or thinking item still growing
	diags     []timeline.Diagnostic
}

type mTool struct {
	id, name, batch string
	status          timeline.Status
	resulted        bool // ended by a result
	updates         int
	output, err     string
	children        []*mItem
	n               int // place in start order
}

type mItemKind uint8

const (
	mOther mItemKind = iota // text, user, notice, separator: anything not a tool
	mTools                  // one tool, or a group once it holds two
	mMeta
)

type mItem struct {
	kind  mItemKind
	batch string
	tools []*mTool
	// Non-tool items: what the item shows (user, assistant, thinking,
	// notice, separator), its text, a notice's level, and whether
	// assistant text was cut off by a cancel.
	what        timeline.ItemKind
	text, level string
	interrupted bool
}

type mSlot struct {
	live []*mTool // not yet terminal, oldest first
	last *mTool
}

type mRun struct {
	container *[]*mItem
	item      *mItem
}

func newModel(metaTools []string) *model {
	m := &model{meta: map[string]bool{}, ids: map[string]*mSlot{}, early: map[string][]event.Event{}}
	for _, n := range metaTools {
		m.meta[n] = true
	}
	return m
}

func (m *model) diag(seq int64, code, id string) {
	m.diags = append(m.diags, timeline.Diagnostic{Seq: seq, Code: code, ID: id})
}

// other appends a non-tool item.
func (m *model) other(what timeline.ItemKind, text, level string) *mItem {
	it := &mItem{kind: mOther, what: what, text: text, level: level}
	m.top = append(m.top, it)
	return it
}

// text grows the open text item of the same kind while it is still the
// last item; anything shown in between starts a new one.
func (m *model) text(what timeline.ItemKind, text string) {
	if o := m.openText; o != nil && o.what == what && len(m.top) > 0 && m.top[len(m.top)-1] == o {
		o.text += text
		return
	}
	m.openText = m.other(what, text, "")
}

// apply follows one event.
func (m *model) apply(ev *event.Event) {
	m.lastSeq = ev.Seq
	if ev.Kind != event.KindToolStart && ev.Kind.Known() {
		m.run = nil // any other event ends a run of starts; unknown kinds only move the clock
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
	case event.KindToolStart:
		m.start(ev)
	case event.KindToolProgress:
		if t := m.liveTool(ev, timeline.DiagLateProgress); t != nil {
			t.updates++
			t.output += ev.Output
		}
	case event.KindToolDone:
		m.done(ev)
	case event.KindPermission:
		m.permission(ev)
	case event.KindCancel:
		m.cancel(ev)
	}
}

func (m *model) turnEnd(ev *event.Event) {
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
func (m *model) cancel(ev *event.Event) {
	if o := m.openText; o != nil && o.what == timeline.ItemAssistant && len(m.top) > 0 && m.top[len(m.top)-1] == o {
		o.interrupted = true
	}
	m.openText = nil
	m.interruptAll("", ev.Seq)
	m.other(timeline.ItemNotice, ev.Reason, timeline.NoticeInterrupted)
	m.cancelled = true
}

// finish applies the end-of-stream rule.
func (m *model) finish() {
	m.openText = nil
	m.flushEarly()
	m.interruptAll(timeline.DiagUnfinishedAtEnd, m.lastSeq)
	m.run = nil
}

func (m *model) start(ev *event.Event) {
	if ev.ID == "" {
		m.diag(ev.Seq, timeline.DiagMissingID, "")
		return
	}
	m.openText = nil
	s := m.ids[ev.ID]
	if s == nil {
		s = &mSlot{}
		m.ids[ev.ID] = s
	} else if len(s.live) > 0 {
		m.diag(ev.Seq, timeline.DiagDuplicateStart, ev.ID)
	}
	t := &mTool{id: ev.ID, name: ev.Name, batch: ev.Batch, status: timeline.StatusRunning, n: m.started}
	m.started++
	container := &m.top
	if ev.Parent != "" {
		if p := m.parent(ev.Parent); p != nil {
			container = &p.children
		} else {
			m.diag(ev.Seq, timeline.DiagUnknownParent, ev.ID)
		}
	}
	m.place(container, t)
	s.live = append(s.live, t)
	s.last = t
	m.order = append(m.order, t)
	if early := m.early[ev.ID]; len(early) > 0 {
		m.early[ev.ID] = early[1:]
		m.diag(early[0].Seq, timeline.DiagDoneBeforeStart, ev.ID)
		m.result(t, &early[0])
	}
}

// parent is the tool a child runs under: the oldest live one with the id,
// else the latest.
func (m *model) parent(id string) *mTool {
	s := m.ids[id]
	switch {
	case s == nil:
		return nil
	case len(s.live) > 0:
		return s.live[0]
	}
	return s.last
}

// place adds a tool to a container by the grouping rules of SPEC §2.
func (m *model) place(container *[]*mItem, t *mTool) {
	if m.meta[t.name] {
		*container = append(*container, &mItem{kind: mMeta, batch: t.batch, tools: []*mTool{t}})
		return
	}
	var join *mItem
	if t.batch == "" {
		if m.run != nil && m.run.container == container && m.run.item.batch == "" {
			join = m.run.item
		}
	} else {
		join = adjacentBatch(*container, t.batch)
	}
	if join == nil {
		join = &mItem{kind: mTools, batch: t.batch}
		*container = append(*container, join)
	}
	join.tools = append(join.tools, t)
	m.run = &mRun{container: container, item: join}
}

// adjacentBatch returns the last item of a container when it is a tool item
// of the batch, looking past the batch's own meta tools.
func adjacentBatch(items []*mItem, batch string) *mItem {
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.batch != batch || it.kind == mOther {
			return nil
		}
		if it.kind == mTools {
			return it
		}
	}
	return nil
}

// liveTool pairs a progress or permission event with the oldest live tool
// of its id, reporting the anomaly when there is none.
func (m *model) liveTool(ev *event.Event, late string) *mTool {
	if ev.ID == "" {
		m.diag(ev.Seq, timeline.DiagMissingID, "")
		return nil
	}
	s := m.ids[ev.ID]
	switch {
	case s == nil:
		m.diag(ev.Seq, timeline.DiagUnknownID, ev.ID)
		return nil
	case len(s.live) == 0:
		m.diag(ev.Seq, late, ev.ID)
		return nil
	}
	return s.live[0]
}

func (m *model) done(ev *event.Event) {
	if ev.ID == "" {
		m.diag(ev.Seq, timeline.DiagMissingID, "")
		return
	}
	s := m.ids[ev.ID]
	switch {
	case s == nil:
		m.early[ev.ID] = append(m.early[ev.ID], *ev)
	case len(s.live) == 0:
		code := timeline.DiagLateDone
		if s.last.resulted {
			code = timeline.DiagDuplicateDone
		}
		m.diag(ev.Seq, code, ev.ID)
	default:
		m.result(s.live[0], ev)
	}
}

func (m *model) result(t *mTool, ev *event.Event) {
	status := timeline.StatusOK
	if !ev.OK {
		status, t.err = timeline.StatusFailed, ev.Error
	}
	if ev.Output != "" {
		t.output = ev.Output
	}
	t.resulted = true
	m.end(t, status)
}

func (m *model) permission(ev *event.Event) {
	t := m.liveTool(ev, timeline.DiagLateProgress)
	if t == nil {
		return
	}
	switch ev.State {
	case event.PermissionAsked:
		t.status = timeline.StatusPending
	case event.PermissionGranted:
		t.status = timeline.StatusRunning
	case event.PermissionDenied:
		m.end(t, timeline.StatusDenied)
	}
}

// end moves a live tool to a terminal status.
func (m *model) end(t *mTool, status timeline.Status) {
	t.status = status
	s := m.ids[t.id]
	if i := slices.Index(s.live, t); i >= 0 {
		s.live = slices.Delete(s.live, i, i+1)
	}
}

// interruptAll interrupts every live tool, in start order.
func (m *model) interruptAll(code string, seq int64) {
	for _, t := range m.order {
		if t.status.Terminal() {
			continue
		}
		m.end(t, timeline.StatusInterrupted)
		if code != "" {
			m.diag(seq, code, t.id)
		}
	}
	m.order = m.order[:0]
}

// flushEarly reports the results whose start never came.
func (m *model) flushEarly() {
	var evs []event.Event
	for _, list := range m.early {
		evs = append(evs, list...)
	}
	slices.SortFunc(evs, func(a, b event.Event) int { return int(a.Seq - b.Seq) })
	for _, ev := range evs {
		m.diag(ev.Seq, timeline.DiagUnknownID, ev.ID)
	}
	clear(m.early)
}

// live counts the tools not yet terminal.
func (m *model) live() int {
	n := 0
	for _, t := range m.order {
		if !t.status.Terminal() {
			n++
		}
	}
	return n
}
