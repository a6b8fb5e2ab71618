package engine

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// This file pairs tool events with their tools through the id index.

func (e *Engine) toolStart(ev *event.Event) {
	if ev.ID == "" {
		e.diag(ev.Seq, timeline.DiagMissingID, "")
		return
	}
	e.closeText()
	s := e.writableSlot(ev.ID)
	if s == nil {
		s = &slot{}
		s.live = s.one[:0]
		e.own.addSlot(s)
		e.ids[ev.ID] = s
	} else if len(s.live) > 0 {
		e.diag(ev.Seq, timeline.DiagDuplicateStart, ev.ID)
	}
	made := &madeTool{tool: timeline.Tool{
		ID: ev.ID, Name: ev.Name, Summary: SummaryOf(ev.Name, ev.Args), Status: timeline.StatusRunning,
		Batch: ev.Batch, Parent: ev.Parent, Meta: e.meta[ev.Name], StartT: ev.T,
	}}
	ref := e.place(made, ev)
	s.live = append(s.live, ref)
	s.last = ref
	e.live = append(e.live, ref)
	if early := e.early[ev.ID]; len(early) > 0 {
		done := early[0]
		if len(early) == 1 {
			delete(e.early, ev.ID)
		} else {
			e.early[ev.ID] = early[1:]
		}
		e.diag(done.Seq, timeline.DiagDoneBeforeStart, ev.ID)
		e.applyDone(ref, done, ev.T)
	}
}

// liveRef returns the oldest live tool with the id, or nil. report is the
// diagnostic to add when the id is known but every tool with it is terminal;
// unknown ids add unknown_id. Empty ids add missing_id.
func (e *Engine) liveRef(ev *event.Event, late string) *toolRef {
	if ev.ID == "" {
		e.diag(ev.Seq, timeline.DiagMissingID, "")
		return nil
	}
	s := e.ids[ev.ID]
	if s == nil {
		e.diag(ev.Seq, timeline.DiagUnknownID, ev.ID)
		return nil
	}
	if len(s.live) == 0 {
		e.diag(ev.Seq, late, ev.ID)
		return nil
	}
	return s.live[0]
}

// toolUpdate amends the oldest live call with the id: a non-empty name
// replaces its name, args (when present) its summary. Status, output,
// grouping and meta-ness do not change.
func (e *Engine) toolUpdate(ev *event.Event) {
	ref := e.liveRef(ev, timeline.DiagLateProgress)
	if ref == nil {
		return
	}
	t := e.writableTool(ref)
	if ev.Name != "" {
		t.Name = ev.Name
	}
	if ev.Args != nil {
		t.Summary = SummaryOf(t.Name, ev.Args)
	}
	e.bumpRoot(ref)
}

func (e *Engine) toolProgress(ev *event.Event) {
	ref := e.liveRef(ev, timeline.DiagLateProgress)
	if ref == nil {
		return
	}
	t := e.writableTool(ref)
	e.appendOutput(t, ev.Output)
	t.UpdateSeq++
	if ev.Details != nil {
		d, bad := Delegation(ev.Details)
		switch {
		case bad:
			e.diag(ev.Seq, timeline.DiagBadDetails, ev.ID)
		case d != nil:
			t.Delegation = d
		}
	}
	e.bumpRoot(ref)
}

func (e *Engine) toolDone(ev *event.Event) {
	if ev.ID == "" {
		e.diag(ev.Seq, timeline.DiagMissingID, "")
		return
	}
	s := e.ids[ev.ID]
	if s == nil {
		// Perhaps the start is still to come: keep the result until then.
		cp := *ev
		e.early[ev.ID] = append(e.early[ev.ID], &cp)
		return
	}
	if len(s.live) == 0 {
		code := timeline.DiagLateDone
		if st := e.tool(s.last).Status; st == timeline.StatusOK || st == timeline.StatusFailed { // ended by a result
			code = timeline.DiagDuplicateDone
		}
		e.diag(ev.Seq, code, ev.ID)
		return
	}
	e.applyDone(s.live[0], ev, ev.T)
}

// applyDone records a result on a live tool. at is the time it takes effect.
func (e *Engine) applyDone(ref *toolRef, ev *event.Event, at int64) {
	t := e.writableTool(ref)
	status := timeline.StatusOK
	if !ev.OK {
		status = timeline.StatusFailed
		t.Error = ev.Error
	}
	if ev.Output != "" {
		t.Output = ev.Output
	}
	e.finishTool(ref, status, at)
	if ev.DurationMS != nil {
		t.DurationMS = *ev.DurationMS
	}
}

func (e *Engine) permission(ev *event.Event) {
	ref := e.liveRef(ev, timeline.DiagLateProgress)
	if ref == nil {
		return
	}
	t := e.writableTool(ref)
	switch ev.State {
	case event.PermissionAsked:
		t.Status = timeline.StatusPending
	case event.PermissionGranted:
		t.Status = timeline.StatusRunning
	case event.PermissionDenied:
		e.finishTool(ref, timeline.StatusDenied, ev.T)
		return
	}
	e.bumpRoot(ref)
}

// finishTool moves a live tool to a terminal status at time t and takes it
// out of the index's live list.
func (e *Engine) finishTool(ref *toolRef, status timeline.Status, t int64) {
	tool := e.writableTool(ref)
	tool.Status = status
	tool.EndT = t
	tool.DurationMS = max(t-tool.StartT, 0)
	e.endOutput(tool)
	s := e.writableSlot(tool.ID)
	if i := slices.Index(s.live, ref); i >= 0 {
		s.live = slices.Delete(s.live, i, i+1)
	}
	e.bumpRoot(ref)
}
