package model

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// States observes what an event is about to do to the model's state and
// calls hit with the name of every rule or interesting situation it
// exercises (the rule inventory of docs/simulator.md). Call it before
// Apply; call Finish's counterpart FinishStates before Finish.
func (m *Model) States(ev *event.Event, hit func(string)) {
	switch ev.Kind {
	case event.KindCancel:
		m.cancelStates(hit)
	case event.KindTurnEnd:
		m.turnEndStates(hit)
	case event.KindToolStart:
		m.startStates(ev, hit)
	case event.KindToolProgress:
		m.progressStates(ev, hit)
	case event.KindToolDone:
		m.resultStates(ev, hit)
	case event.KindPermission:
		m.permissionStates(ev, hit)
	case event.KindText, event.KindThinking:
		if m.live > 0 {
			hit(RuleTextWhileLive)
		}
	case event.KindError:
		hit(RuleErrorNotice)
	case event.KindUser:
		hit(RuleUserItem)
	}
}

// FinishStates is States for the end of the stream.
func (m *Model) FinishStates(hit func(string)) {
	if m.live > 0 {
		hit(RuleEndWithLive)
	}
	if len(m.early) > 0 {
		hit(RuleUnknownResultAtEnd)
	}
}

func (m *Model) turnEndStates(hit func(string)) {
	if m.live > 0 {
		hit(StateTurnEndLive)
	}
	switch {
	case m.role == event.RoleUser:
		hit(RuleNoSeparatorUser)
	case m.cancelled:
		hit(RuleNoSeparatorCancel)
	}
	if len(m.early) > 0 {
		hit(RuleUnknownResultAtTurnEnd)
	}
}

func (m *Model) cancelStates(hit func(string)) {
	if m.live >= 2 {
		hit(StateCancelManyLive)
	}
	if m.live == 0 {
		hit(RuleCancelNothingLive)
	}
	if o := m.openText; o != nil && o.what == timeline.ItemAssistant && m.lastIs(o) {
		hit(RuleCancelMidText)
	}
	for _, t := range m.order {
		switch {
		case t.status.Terminal():
		case t.status == timeline.StatusPending:
			hit(StateCancelPending)
		case t.updates > 0:
			hit(StateCancelAfterProg)
		}
	}
}

func (m *Model) startStates(ev *event.Event, hit func(string)) {
	if ev.ID == "" {
		hit(RuleMissingID)
		return
	}
	if s := m.ids[ev.ID]; s != nil && len(s.live) > 0 {
		hit(StateLiveIDReused)
	} else if s != nil {
		hit(RuleIDReusedAfterEnd)
	}
	if len(m.early[ev.ID]) > 0 {
		hit(StateResultFirst)
	}
	if ev.Parent != "" {
		m.parentStates(ev, hit)
	}
	m.groupStates(ev, hit)
}

func (m *Model) parentStates(ev *event.Event, hit func(string)) {
	p := m.parent(ev.Parent)
	switch {
	case p == nil:
		hit(RuleUnknownParent)
		return
	case p.status.Terminal():
		hit(RuleParentEnded)
	default:
		hit(StateSubagent)
	}
	if p.root >= 0 && p.root < len(m.top) && m.depthOf(p) > 0 {
		hit(RuleNestedChild)
	}
}

// depthOf reports how deep a tool is nested (0 at top level).
func (m *Model) depthOf(p *tool) int {
	for _, it := range m.top[p.root].tools {
		if it == p {
			return 0
		}
	}
	return 1
}

func (m *Model) groupStates(ev *event.Event, hit func(string)) {
	if m.cfg.NoGrouping {
		return
	}
	if m.meta[ev.Name] {
		if m.run != nil {
			hit(RuleMetaInRun)
		}
		return
	}
	if ev.Batch != "" {
		m.batchStates(ev, hit)
		return
	}
	if r := m.run; r != nil && r.item.batch == "" && r.container == &m.top {
		hit(RuleGroupByRun)
		if len(r.item.tools) == 2 {
			hit(StateBigGroup)
		}
	}
}

func (m *Model) batchStates(ev *event.Event, hit func(string)) {
	i := adjacentBatch(m.top, ev.Batch)
	if i < 0 {
		if n := len(m.top); n > 0 && m.top[n-1].kind == tools && m.top[n-1].batch != "" {
			hit(RuleAdjacentBatches)
		}
		return
	}
	hit(RuleGroupByBatch)
	if m.run == nil {
		hit(RuleBatchInterleaved)
	}
	if len(m.top[i].tools) == 2 {
		hit(StateBigGroup)
	}
}

func (m *Model) progressStates(ev *event.Event, hit func(string)) {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
		hit(RuleMissingID)
	case s == nil:
		hit(RuleUnknownProgress)
	case len(s.live) == 0 && s.last.status == timeline.StatusDenied:
		hit(RuleProgressAfterDenial)
	case len(s.live) == 0 && s.last.resulted:
		hit(StateProgressAfter)
	case len(s.live) == 0:
		hit(RuleLateProgress)
	case ev.Output != "":
		hit(RuleStreamedOutput)
	}
	if ev.Details != nil {
		hit(RuleDelegation)
	}
}

func (m *Model) resultStates(ev *event.Event, hit func(string)) {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
		hit(RuleMissingID)
	case s == nil:
		hit(StateResultFirst)
	case len(s.live) > 0:
		m.liveResultStates(ev, s.live[0], hit)
	case s.last.status == timeline.StatusDenied:
		hit(StateDeniedResult)
	case s.last.resulted:
		hit(StateDuplicateResult)
	case m.role == "":
		hit(StateResultAfterEnd)
	case m.cancelled:
		hit(StateResultAfterCancel)
	}
}

func (m *Model) liveResultStates(ev *event.Event, t *tool, hit func(string)) {
	switch {
	case !ev.OK:
		hit(RuleFailed)
	case t.output != "" && ev.Output == "":
		hit(RuleKeepStreamed)
	case t.output != "":
		hit(RuleReplaceStreamed)
	}
	if ev.DurationMS != nil && *ev.DurationMS != ev.T-t.startT {
		hit(RuleDurationGiven)
	}
	if t.status == timeline.StatusPending {
		hit(RuleResultWhilePending)
	}
}

func (m *Model) permissionStates(ev *event.Event, hit func(string)) {
	s := m.ids[ev.ID]
	if s == nil || len(s.live) == 0 {
		hit(RuleLatePermission)
		return
	}
	switch ev.State {
	case event.PermissionAsked:
		hit(RulePermissionAsked)
	case event.PermissionGranted:
		hit(RulePermissionGranted)
	case event.PermissionDenied:
		hit(RulePermissionDenied)
	}
}
