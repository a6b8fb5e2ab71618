package harness

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// The interesting states a campaign counts: situations where engines go
// wrong, which a campaign should reach often enough to matter.
const (
	StateCancelManyLive    = "cancel while 2+ tools live"
	StateCancelAfterProg   = "cancel between progress and result"
	StateCancelPending     = "cancel while permission pending"
	StateDeniedResult      = "result for a denied tool"
	StateResultAfterCancel = "result after cancel"
	StateResultAfterEnd    = "result after turn end"
	StateResultFirst       = "result before start"
	StateDuplicateResult   = "duplicate result"
	StateProgressAfter     = "progress after result"
	StateLiveIDReused      = "id reused while live"
	StateSubagent          = "sub-agent call"
	StateBigGroup          = "group of 3+ tools"
	StateTurnEndLive       = "turn ended with tools live"
)

// States lists the state names in report order.
var States = []string{
	StateCancelManyLive, StateCancelAfterProg, StateCancelPending, StateDeniedResult,
	StateResultAfterCancel, StateResultAfterEnd, StateResultFirst, StateDuplicateResult,
	StateProgressAfter, StateLiveIDReused, StateSubagent, StateBigGroup, StateTurnEndLive,
}

// StatesOf counts the interesting states a trace reaches, judged by the
// harness model before each event applies.
func StatesOf(evs []event.Event, metaTools []string) map[string]int {
	if metaTools == nil {
		metaTools = DefaultMetaTools
	}
	m := newModel(metaTools)
	hit := map[string]int{}
	for i := range evs {
		ev := &evs[i]
		m.states(ev, hit)
		m.apply(ev)
		if ev.Kind == event.KindToolStart && m.run != nil && len(m.run.item.tools) == 3 {
			hit[StateBigGroup]++
		}
	}
	return hit
}

// states counts what ev is about to do to the model's state.
func (m *model) states(ev *event.Event, hit map[string]int) {
	switch ev.Kind {
	case event.KindCancel:
		m.cancelStates(hit)
	case event.KindTurnEnd:
		if m.live() > 0 {
			hit[StateTurnEndLive]++
		}
	case event.KindToolStart:
		if s := m.ids[ev.ID]; s != nil && len(s.live) > 0 {
			hit[StateLiveIDReused]++
		}
		if ev.Parent != "" && m.parent(ev.Parent) != nil {
			hit[StateSubagent]++
		}
	case event.KindToolProgress:
		if s := m.ids[ev.ID]; s != nil && len(s.live) == 0 && s.last.resulted {
			hit[StateProgressAfter]++
		}
	case event.KindToolDone:
		m.resultStates(ev, hit)
	}
}

func (m *model) cancelStates(hit map[string]int) {
	if m.live() >= 2 {
		hit[StateCancelManyLive]++
	}
	for _, t := range m.order {
		switch {
		case t.status.Terminal():
		case t.status == timeline.StatusPending:
			hit[StateCancelPending]++
		case t.updates > 0:
			hit[StateCancelAfterProg]++
		}
	}
}

func (m *model) resultStates(ev *event.Event, hit map[string]int) {
	s := m.ids[ev.ID]
	switch {
	case ev.ID == "":
	case s == nil:
		hit[StateResultFirst]++
	case len(s.live) > 0:
	case s.last.status == timeline.StatusDenied:
		hit[StateDeniedResult]++
	case s.last.resulted:
		hit[StateDuplicateResult]++
	case m.role == "":
		hit[StateResultAfterEnd]++
	case m.cancelled:
		hit[StateResultAfterCancel]++
	}
}
