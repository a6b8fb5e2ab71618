package model

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

func (m *Model) start(ev *event.Event) {
	if ev.ID == "" {
		m.diag(ev.Seq, timeline.DiagMissingID, "")
		return
	}
	m.openText = nil
	s := m.ids[ev.ID]
	if s == nil {
		s = &slot{}
		m.ids[ev.ID] = s
	} else if len(s.live) > 0 {
		m.diag(ev.Seq, timeline.DiagDuplicateStart, ev.ID)
	}
	s.starts++
	t := &tool{id: ev.ID, name: ev.Name, batch: ev.Batch, status: timeline.StatusRunning, n: m.started, startT: ev.T}
	m.started++
	m.live++
	container, root := &m.top, -1
	t.top = t
	if ev.Parent != "" {
		if p := m.parent(ev.Parent); p != nil {
			container, root, t.top = &p.children, p.root, p.top
		} else {
			m.diag(ev.Seq, timeline.DiagUnknownParent, ev.ID)
		}
	}
	at := m.place(container, t)
	if root < 0 {
		root = at
	}
	t.root = root
	m.touchTool(t)
	s.live = append(s.live, t)
	s.last = t
	m.order = append(m.order, t)
	if early := m.early[ev.ID]; len(early) > 0 {
		m.early[ev.ID] = early[1:]
		m.diag(early[0].Seq, timeline.DiagDoneBeforeStart, ev.ID)
		m.result(t, &early[0], ev.T)
	}
}

// parent is the tool a child runs under: the oldest live one with the id,
// else the latest.
func (m *Model) parent(id string) *tool {
	s := m.ids[id]
	switch {
	case s == nil:
		return nil
	case len(s.live) > 0:
		return s.live[0]
	}
	return s.last
}

// place adds a tool to a container by the grouping rules of SPEC §2 and
// returns the index of the item that holds it there.
func (m *Model) place(container *[]*item, t *tool) int {
	if m.cfg.NoGrouping {
		*container = append(*container, &item{kind: tools, batch: t.batch, tools: []*tool{t}})
		return len(*container) - 1
	}
	if m.meta[t.name] {
		*container = append(*container, &item{kind: metaItem, batch: t.batch, tools: []*tool{t}})
		return len(*container) - 1
	}
	at := -1
	if t.batch == "" {
		if r := m.run; r != nil && r.container == container && r.item.batch == "" {
			at = r.at
		}
	} else {
		at = adjacentBatch(*container, t.batch)
	}
	if at < 0 {
		*container = append(*container, &item{kind: tools, batch: t.batch})
		at = len(*container) - 1
	}
	join := (*container)[at]
	t.pos = len(join.tools)
	join.tools = append(join.tools, t)
	m.run = &runState{container: container, item: join, at: at}
	return at
}

// adjacentBatch returns the index of the last item of a container when it
// is a tool item of the batch, looking past the batch's own meta tools; -1
// when there is none.
func adjacentBatch(items []*item, batch string) int {
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.batch != batch || it.kind == other {
			return -1
		}
		if it.kind == tools {
			return i
		}
	}
	return -1
}

// liveTool pairs a progress or permission event with the oldest live tool
// of its id, reporting the anomaly when there is none.
func (m *Model) liveTool(ev *event.Event, late string) *tool {
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

func (m *Model) progress(ev *event.Event) {
	if t := m.liveTool(ev, timeline.DiagLateProgress); t != nil {
		t.updates++
		t.output += ev.Output
		m.touchTool(t)
	}
}

func (m *Model) done(ev *event.Event) {
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
		m.result(s.live[0], ev, ev.T)
	}
}

// result ends a tool with a result that takes effect at time at.
func (m *Model) result(t *tool, ev *event.Event, at int64) {
	status := timeline.StatusOK
	if !ev.OK {
		status, t.err = timeline.StatusFailed, ev.Error
	}
	if ev.Output != "" {
		t.output = ev.Output
	}
	t.resulted = true
	m.end(t, status, at)
	if ev.DurationMS != nil {
		t.duration = *ev.DurationMS
	}
}

func (m *Model) permission(ev *event.Event) {
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
		m.end(t, timeline.StatusDenied, ev.T)
	}
	m.touchTool(t)
}

// end moves a live tool to a terminal status at time at.
func (m *Model) end(t *tool, status timeline.Status, at int64) {
	t.status = status
	t.endT, t.duration = at, max(at-t.startT, 0)
	m.live--
	s := m.ids[t.id]
	if i := slices.Index(s.live, t); i >= 0 {
		s.live = slices.Delete(s.live, i, i+1)
	}
	m.touchTool(t)
}

// interruptAll interrupts every live tool, in start order.
func (m *Model) interruptAll(code string, seq int64) {
	for _, t := range m.order {
		if t.status.Terminal() {
			continue
		}
		m.end(t, timeline.StatusInterrupted, m.now)
		if code != "" {
			m.diag(seq, code, t.id)
		}
	}
	m.order = m.order[:0]
}

// flushEarly reports the results whose start never came.
func (m *Model) flushEarly() {
	if len(m.early) == 0 {
		return
	}
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
