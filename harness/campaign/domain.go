package campaign

import (
	"fmt"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/sim/tracemeta"
)

// Domain is what a run may hold: the trace faults it switched on and the
// features the engine supports. A campaign's finding is shrunk inside its
// run's domain, so that a repro never shows a fault the run had switched
// off (an unknown id in a run without unknown-id) or an event the engine
// never declared. The zero value allows no fault and every feature.
type Domain struct {
	Faults   fault.List      // the trace faults switched on
	Features sim.FeatureList // nil: every feature
	// Any allows every fault: the domain of a captured trace, which was
	// not generated under a fault list.
	Any bool
	// Contract is what the engine's upstream guarantees: a trace that
	// breaks it is outside the domain, whatever the faults allow.
	Contract contract.List
}

// anomaly is an event that only a fault can produce: a result for an id
// never started, a second result, a cancel.
type anomaly struct {
	Seq  int64
	Rule string     // the model's rule for the event (see Signature)
	Need fault.List // any one of these faults produces it
}

// String names the anomaly and the faults that produce it.
func (a anomaly) String() string {
	if len(a.Need) == 0 {
		return fmt.Sprintf("seq %d, %s (no fault produces it)", a.Seq, a.Rule)
	}
	return fmt.Sprintf("seq %d, %s (fault %s)", a.Seq, a.Rule, a.Need.Join(" or "))
}

// Turn-structure anomalies: no fault produces them, so no run's domain
// holds them (a captured trace's does). A trace without turns (an
// exhaustive ordering) has none.
const (
	turnInTurn     = "turn start inside an open turn"
	turnEndOutside = "turn end with no turn open"
	contentOutside = "content outside a turn"
	wrongRole      = "content of the other role's turn"
)

// turns follows a trace's turn structure for Anomalies. A trace without
// turn_start (an exhaustive ordering) begins inside one implicit turn.
type turns struct {
	any  bool // the trace has a turn_start
	open bool
	role string // the open turn's role ("" in the implicit turn)
}

// anomaly returns the turn-structure anomaly ev makes, or "".
func (t *turns) anomaly(ev *event.Event) string {
	switch ev.Kind {
	case event.KindTurnStart:
		was := t.open
		t.open, t.role = true, ev.Role
		if was {
			return turnInTurn
		}
	case event.KindTurnEnd:
		was := t.open
		t.open = false
		if !was {
			return turnEndOutside
		}
	case event.KindText, event.KindThinking, event.KindUser, event.KindToolStart:
		if !t.open {
			return contentOutside
		}
		if user := ev.Kind == event.KindUser; t.role != "" && user != (t.role == event.RoleUser) {
			return wrongRole
		}
	}
	return ""
}

// ruleFaults maps the rules that only faults reach to the faults that
// reach them; a test checks the simulator against it seed by seed.
var ruleFaults = map[string]fault.List{
	model.RuleMissingID:           {fault.EmptyID},
	model.StateLiveIDReused:       {fault.ReusedIDBatch, fault.ReusedIDTurns, fault.IDIsName},
	model.RuleIDReusedAfterEnd:    {fault.ReusedIDBatch, fault.ReusedIDTurns, fault.IDIsName},
	model.RuleUnknownProgress:     {fault.UnknownID},
	model.RuleProgressAfterDenial: {fault.ProgressAfterResult},
	model.StateProgressAfter:      {fault.ProgressAfterResult},
	model.RuleLateProgress:        {fault.ProgressAfterResult},
	model.RuleLatePermission:      {fault.UnknownID},
	model.StateDeniedResult:       {fault.LateResult},
	model.StateDuplicateResult:    {fault.DuplicateResult},
	model.StateResultAfterEnd:     {fault.LateResult},
	model.StateResultAfterCancel:  {fault.LateResult},
	model.RuleResultForNoLive:     {fault.LateResult},
	// A tool left running: its result never came, or went to another
	// call with the same id.
	model.StateTurnEndLive:      {fault.MissingResult, fault.ReusedIDBatch, fault.ReusedIDTurns, fault.IDIsName},
	model.RuleEndWithLive:       {fault.MissingResult, fault.ReusedIDBatch, fault.ReusedIDTurns, fault.IDIsName},
	model.RuleCancelNothingLive: {fault.Cancel, fault.CancelBeforeResult},
	model.RuleCancel:            {fault.Cancel, fault.CancelBeforeResult},
}

// anomalies lists the events of evs that only a fault produces, judged by
// the harness's model (opts sets its meta tools and grouping), and those
// no fault produces: a turn started inside an open turn, a turn ended
// when none is open, content outside a turn (Need is then empty). A result
// for an id not yet started needs result-before-start when the id starts
// later, else unknown-id.
func anomalies(evs []event.Event, opts harness.Options) []anomaly {
	m := model.New(model.Config{MetaTools: model.MetaTools(opts.MetaTools), NoGrouping: opts.NoGrouping, ToolRows: opts.ToolRows})
	later := map[string]int{} // id → index of its last start
	var tt turns
	for i := range evs {
		if evs[i].Kind == event.KindToolStart {
			later[evs[i].ID] = i
		}
		tt.any = tt.any || evs[i].Kind == event.KindTurnStart
	}
	tt.open = !tt.any
	var out []anomaly
	for i := range evs {
		ev := &evs[i]
		if a := tt.anomaly(ev); a != "" {
			out = append(out, anomaly{Seq: ev.Seq, Rule: a, Need: fault.List{}})
		}
		rule := m.Rule(ev)
		need := ruleFaults[rule]
		if rule == model.StateResultFirst && ev.Kind == event.KindToolDone {
			need = fault.List{fault.UnknownID}
			if j, ok := later[ev.ID]; ok && j > i {
				need = fault.List{fault.ResultBeforeStart}
			}
		}
		if need != nil {
			out = append(out, anomaly{Seq: ev.Seq, Rule: rule, Need: need})
		}
		m.Apply(ev)
	}
	if rule := m.FinishRule(); ruleFaults[rule] != nil {
		out = append(out, anomaly{Seq: m.LastSeq(), Rule: rule, Need: ruleFaults[rule]})
	}
	return out
}

// Outside says why evs leave the domain: the first event of a feature the
// domain leaves out, the first event that breaks its contract, or the
// first anomaly none of whose faults is on. It returns "" for a trace
// inside the domain.
func (d Domain) Outside(evs []event.Event, opts harness.Options) string {
	meta := map[string]bool{}
	for _, n := range model.MetaTools(opts.MetaTools) {
		meta[n] = true
	}
	for i := range evs {
		ev := &evs[i]
		f := sim.FeatureOf(ev)
		if ev.Kind == event.KindToolStart && meta[ev.Name] {
			f = sim.FeatureMeta
		}
		if !d.Features.Has(f) {
			return fmt.Sprintf("seq %d, %s: feature %s is off", ev.Seq, ev.Kind, f)
		}
	}
	if b := d.Contract.Check(evs); b != nil {
		return b.String() + ": outside the engine's contract"
	}
	if d.Any {
		return ""
	}
	for _, a := range anomalies(evs, opts) {
		if !d.allows(a.Need) {
			return a.String() + " is off"
		}
	}
	return ""
}

// allows reports whether any fault of need is on.
func (d Domain) allows(need fault.List) bool {
	for _, f := range need {
		if d.Faults.Has(f) {
			return true
		}
	}
	return false
}

// ShrinkDomain is the domain toolsim shrink keeps a trace with header h
// in, and where it came from, in words. A trace toolsim generated records
// the trace faults it was made under in its header (a seed from toolsim
// sim, a failure a campaign saved: the domain the campaign shrank it in):
// those. Any other trace (captured, or a header without them) was not
// generated under a fault list: any fault. features are the engine's. An
// error names a header meta that cannot be read.
func ShrinkDomain(h *event.Header, features sim.FeatureList) (Domain, string, error) {
	faults, ok, err := tracemeta.Faults(h)
	switch {
	case err != nil:
		return Domain{}, "", err
	case !ok:
		return Domain{Any: true, Features: features}, "any fault (the trace records no fault list)", nil
	}
	return Domain{Faults: faults, Features: features}, "faults " + faults.String() + " (from the trace header)", nil
}
