package model

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// The rules only Rule names: a cancel with tools live, and a result for
// an id whose tools all ended some other way than by a result, a denial,
// a cancel or the turn's end.
const (
	RuleCancel          = "cancel"
	RuleResultForNoLive = "result for no live tool"
)

// Rule names the one rule of SPEC §2 that decides what an event does to
// the model's state: the first half of a failure's signature. Where
// States lists every situation an event touches (for coverage), Rule picks
// the rule that governs the outcome, so that one engine bug met in
// different surroundings gets one name. Events no special rule governs are
// named by what they are ("result", "tool start", "cancel"): the ordinary
// variants of a result (failed, while permission is pending, with a
// duration, replacing streamed output) and of progress (with output, a
// delegation payload) are one rule each, which the WHAT half of a
// signature tells apart. Call it before Apply, as States; FinishRule is
// its counterpart for the end of the stream.
func (m *Model) Rule(ev *event.Event) string {
	switch ev.Kind {
	case event.KindToolStart:
		return m.startRule(ev)
	case event.KindToolProgress:
		return m.progressRule(ev)
	case event.KindToolDone:
		return m.resultRule(ev)
	case event.KindPermission:
		return m.permissionRule(ev)
	case event.KindCancel:
		if m.live == 0 {
			return RuleCancelNothingLive
		}
		return RuleCancel
	case event.KindTurnEnd:
		return m.turnEndRule()
	case event.KindError:
		return RuleErrorNotice
	case event.KindUser:
		return RuleUserItem
	case event.KindTurnStart:
		return "turn start"
	}
	return string(ev.Kind)
}

// FinishRule is Rule for the end of the stream.
func (m *Model) FinishRule() string {
	switch {
	case m.running():
		return RuleEndWithLive
	case m.live > 0:
		return RuleEndPending
	case len(m.early) > 0:
		return RuleUnknownResultAtEnd
	}
	return "end of stream"
}

// The rules of a turn or stream that ends with every live tool waiting
// for permission (asked, never answered): no fault is needed for them.
const (
	RuleTurnEndPending = "turn ended with permission pending"
	RuleEndPending     = "end of stream with permission pending"
)

// running reports whether a tool that is not waiting for permission is
// still live.
func (m *Model) running() bool {
	for _, t := range m.order {
		if !t.status.Terminal() && t.status != timeline.StatusPending {
			return true
		}
	}
	return false
}

func (m *Model) startRule(ev *event.Event) string {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
		return RuleMissingID
	case s != nil && len(s.live) > 0:
		return StateLiveIDReused
	case s != nil:
		return RuleIDReusedAfterEnd
	case len(m.early[ev.ID]) > 0:
		return StateResultFirst
	case ev.Parent != "":
		return m.parentRule(ev)
	case m.meta[ev.Name] && !m.cfg.NoGrouping:
		return "meta tool"
	}
	return "tool start"
}

func (m *Model) parentRule(ev *event.Event) string {
	switch p := m.parent(ev.Parent); {
	case p == nil:
		return RuleUnknownParent
	case p.status.Terminal():
		return RuleParentEnded
	}
	return StateSubagent
}

func (m *Model) progressRule(ev *event.Event) string {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
		return RuleMissingID
	case s == nil:
		return RuleUnknownProgress
	case len(s.live) == 0 && s.last.status == timeline.StatusDenied:
		return RuleProgressAfterDenial
	case len(s.live) == 0 && s.last.resulted:
		return StateProgressAfter
	case len(s.live) == 0:
		return RuleLateProgress
	}
	return "progress"
}

func (m *Model) resultRule(ev *event.Event) string {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
		return RuleMissingID
	case s == nil:
		return StateResultFirst
	case len(s.live) > 0:
		return "result"
	case s.last.status == timeline.StatusDenied:
		return StateDeniedResult
	case s.last.resulted:
		return StateDuplicateResult
	case m.role == "":
		return StateResultAfterEnd
	case m.cancelled:
		return StateResultAfterCancel
	}
	return RuleResultForNoLive
}

func (m *Model) permissionRule(ev *event.Event) string {
	if ev.ID == "" {
		return RuleMissingID
	}
	if s := m.ids[ev.ID]; s == nil || len(s.live) == 0 {
		return RuleLatePermission
	}
	switch ev.State {
	case event.PermissionAsked:
		return RulePermissionAsked
	case event.PermissionGranted:
		return RulePermissionGranted
	case event.PermissionDenied:
		return RulePermissionDenied
	}
	return "permission"
}

func (m *Model) turnEndRule() string {
	switch {
	case m.running():
		return StateTurnEndLive
	case m.live > 0:
		return RuleTurnEndPending
	case len(m.early) > 0:
		return RuleUnknownResultAtTurnEnd
	case m.role == event.RoleUser:
		return RuleNoSeparatorUser
	case m.cancelled:
		return RuleNoSeparatorCancel
	}
	return "turn end"
}
