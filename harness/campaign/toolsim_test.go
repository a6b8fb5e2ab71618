package campaign_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// faultyKit is the reference engine whose Err, from the event of seq at
// on, is toolsim's own fault, as the executor kit's is when it took a
// timeline before its library settled.
type faultyKit struct {
	*engine.Engine
	at  int64
	err error
}

func (k *faultyKit) Apply(ev *event.Event) {
	if ev.Seq >= k.at && k.err == nil {
		k.err = &harness.ToolsimFault{Part: "executor kit", Detail: "the UI changed between two events"}
	}
	k.Engine.Apply(ev)
}

func (k *faultyKit) Err() error { return k.err }

// flipFlop is the reference engine, except that every second engine made
// shows each result's output changed: an engine that is nondeterministic.
func flipFlop() func() harness.Engine {
	var made atomic.Int64
	return func() harness.Engine {
		odd := made.Add(1)%2 == 1
		return planted.Wrap(func(e *engine.Engine, ev *event.Event) {
			if odd && ev.Kind == event.KindToolDone {
				cp := *ev
				cp.Output += " (again)"
				ev = &cp
			}
			e.Apply(ev)
		})()
	}
}

// TestToolsimFaultIsNotAFinding plants a nondeterministic step of
// toolsim's own (the simulator, the renderer, the executor kit) and sees
// the campaign return it as toolsim's error, with no finding; an engine
// that is nondeterministic itself still gives a finding, and no error.
func TestToolsimFaultIsNotAFinding(t *testing.T) {
	var mu sync.Mutex
	calls := map[uint64]int{}
	twoWays := func(seed uint64, o sim.Options) *sim.Scenario {
		sc := sim.Generate(seed, o)
		mu.Lock()
		defer mu.Unlock()
		if calls[seed]++; calls[seed] == 2 {
			sc.Events[0].T++ // the second generation of a seed differs
		}
		return sc
	}
	var drawn atomic.Int64
	drawTwoWays := func(tl *timeline.Timeline, o render.Options) string {
		return render.Render(tl, o) + fmt.Sprint(drawn.Add(1))
	}
	tests := []struct {
		name      string
		plant     func(*campaign.Campaign)
		engine    func() harness.Engine
		wantPart  string // "" for no error: the engine's own finding
		wantOracs []string
	}{
		{"a simulator that generates a seed two ways", func(c *campaign.Campaign) { campaign.PlantGenerate(c, twoWays) },
			planted.Reference, "(simulator)", nil},
		{"a renderer that draws a timeline two ways", func(c *campaign.Campaign) { campaign.PlantRender(c, drawTwoWays) },
			planted.Reference, "(renderer)", nil},
		{"an executor kit that missed a change", func(*campaign.Campaign) {},
			func() harness.Engine { return &faultyKit{Engine: engine.New(engine.Options{}), at: 3} }, "(executor kit)", nil},
		{"an engine that is nondeterministic itself", func(*campaign.Campaign) {},
			flipFlop(), "", []string{harness.OracleDeterminism, harness.OracleNondeterminism}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := campaign.Campaign{Seeds: 30, NoShrink: true, Sim: sim.Options{Faults: fault.List{fault.Order}}}
			tt.plant(&c)
			rep, err := c.Run(tt.engine)
			if tt.wantPart == "" {
				if err != nil {
					t.Fatalf("want the engine's finding, got toolsim's error: %v", err)
				}
				found := false
				for _, f := range rep.Findings {
					found = found || slicesContain(tt.wantOracs, f.Violation.Oracle)
				}
				if !found {
					t.Fatalf("want a finding of %v, got %d findings", tt.wantOracs, len(rep.Findings))
				}
				return
			}
			var te *campaign.ToolsimError
			if !errors.As(err, &te) {
				t.Fatalf("want a *campaign.ToolsimError, got %v", err)
			}
			if !strings.Contains(te.Detail, tt.wantPart) || !strings.Contains(err.Error(), "bug in toolsim") {
				t.Errorf("error %q does not name the part %s and whose bug it is", err, tt.wantPart)
			}
			if rep == nil || rep.Toolsim != te {
				t.Errorf("the report does not carry the error")
			}
			if rep != nil && len(rep.Findings) > 0 {
				t.Errorf("toolsim's own fault became %d finding(s), the first %q", len(rep.Findings), rep.Findings[0].Signature)
			}
		})
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stuckAfterSpinner is the spinner bug (a cancel leaves a tool running)
// with an engine failure at the turn's end while a tool still runs: a
// hang seen only after the spinner's finding.
type stuckAfterSpinner struct {
	harness.Engine
	err error
}

func (s *stuckAfterSpinner) Apply(ev *event.Event) {
	s.Engine.Apply(ev)
	if ev.Kind != event.KindTurnEnd || s.err != nil {
		return
	}
	for _, it := range s.Engine.Timeline().Items {
		if it.Tool != nil && it.Tool.Status == timeline.StatusRunning {
			s.err = errors.New("the engine did not settle")
		}
	}
}

func (s *stuckAfterSpinner) Err() error { return s.err }

// TestEngineFailureIsNeverOnlyAfter: an engine that fails (hangs,
// crashes) only after another finding is counted all the same, with a
// note naming what came first.
func TestEngineFailureIsNeverOnlyAfter(t *testing.T) {
	c := campaign.Campaign{Seeds: 60, Sim: sim.Options{Faults: fault.List{fault.Cancel}}}
	rep, err := c.Run(func() harness.Engine { return &stuckAfterSpinner{Engine: planted.CancelLeavesSpinner()} })
	if err != nil {
		t.Fatal(err)
	}
	var stuck *campaign.Finding
	for _, f := range rep.Findings {
		if f.Violation.Oracle == harness.OracleEngine {
			stuck = f
		}
	}
	if stuck == nil {
		t.Fatalf("no engine failure among %d findings", len(rep.Findings))
	}
	if stuck.After != "" || !strings.Contains(stuck.Note, "counted all the same") || !slicesContain(signatures(rep.New()), stuck.Signature) {
		t.Errorf("engine failure %q: after %q, note %q; want it counted, with a note", stuck.Signature, stuck.After, stuck.Note)
	}
}

func signatures(fs []*campaign.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Signature)
	}
	return out
}

// kitFaultAtEnd is the spinner bug with toolsim's own fault at the end of
// the stream: a fault seen after the engine's first violation.
type kitFaultAtEnd struct {
	harness.Engine
	err error
}

func (k *kitFaultAtEnd) Finish() {
	k.Engine.Finish()
	k.err = &harness.ToolsimFault{Part: "executor kit", Detail: "the UI changed between two events"}
}

func (k *kitFaultAtEnd) Err() error { return k.err }

// TestToolsimFaultAfterAFinding: toolsim's fault seen after the engine's
// own first violation is the run's error, never a finding of its own,
// shrunk or not; the engine's finding stays.
func TestToolsimFaultAfterAFinding(t *testing.T) {
	for _, noShrink := range []bool{true, false} {
		t.Run(fmt.Sprintf("no-shrink=%v", noShrink), func(t *testing.T) {
			c := campaign.Campaign{Seeds: 60, NoShrink: noShrink, Sim: sim.Options{Faults: fault.List{fault.Cancel}}}
			rep, err := c.Run(func() harness.Engine { return &kitFaultAtEnd{Engine: planted.CancelLeavesSpinner()} })
			var te *campaign.ToolsimError
			if !errors.As(err, &te) {
				t.Fatalf("want toolsim's error, got %v", err)
			}
			if len(rep.Findings) == 0 {
				t.Fatal("the spinner's finding is gone")
			}
			for _, f := range rep.Findings {
				if f.Violation.Oracle == harness.OracleToolsim || strings.HasPrefix(f.Signature, "toolsim") {
					t.Errorf("toolsim's fault became a finding: %q", f.Signature)
				}
			}
		})
	}
}
