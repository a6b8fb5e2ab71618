package harness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

func reference() harness.Engine { return engine.New(engine.Options{}) }

func catalog(t *testing.T) map[string][]event.Event {
	t.Helper()
	paths, _ := filepath.Glob("../scenarios/*.txtar")
	out := map[string][]event.Event{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if f.Name != "trace.jsonl" {
				continue // scenarios of other formats are checked by package formats
			}
			_, evs, err := event.ReadAll(bytes.NewReader(f.Data), event.ReaderOptions{Name: p})
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(p)] = evs
		}
	}
	if len(out) == 0 {
		t.Fatal("no scenarios found")
	}
	return out
}

func TestReferencePassesOnCatalog(t *testing.T) {
	for name, evs := range catalog(t) {
		if v := harness.Check(reference, evs); len(v) > 0 {
			t.Errorf("%s: %v", name, v)
		}
	}
}

func TestReferencePassesOnSynthetic(t *testing.T) {
	for seed := range uint64(10) {
		evs := sim.Synthetic(seed, sim.SyntheticOptions{Events: 400, CancelEvery: 3})
		if v := harness.Check(reference, evs); len(v) > 0 {
			t.Errorf("seed %d: %v (reproduce: go test ./harness -run TestReferencePassesOnSynthetic)", seed, v[0])
		}
	}
}

// broken wraps the reference engine and damages it in one way.
type broken struct {
	*engine.Engine
	apply func(e *engine.Engine, ev *event.Event)
}

func (b broken) Apply(ev *event.Event) { b.apply(b.Engine, ev) }

func wrap(apply func(e *engine.Engine, ev *event.Event)) func() harness.Engine {
	return func() harness.Engine { return broken{engine.New(engine.Options{}), apply} }
}

// TestOraclesCatchBrokenEngines shows each oracle failing on an engine that
// breaks its rule.
func TestOraclesCatchBrokenEngines(t *testing.T) {
	tests := []struct {
		name     string
		scenario string // default seed000-mixed-flow
		engine   func() harness.Engine
		oracle   string
	}{
		{"spinner forever: turn_end ignored", "edge-unfinished-at-turn-end", wrap(func(e *engine.Engine, ev *event.Event) {
			if ev.Kind != event.KindTurnEnd {
				e.Apply(ev)
			}
		}), harness.OracleNoLive},
		{"second start dropped", "", wrap(func(e *engine.Engine, ev *event.Event) {
			if ev.Kind == event.KindToolStart && len(e.Live()) > 0 {
				return
			}
			e.Apply(ev)
		}), harness.OracleOnce},
		{"finished tool revived", "", wrap(func(e *engine.Engine, ev *event.Event) {
			e.Apply(ev)
			if ev.Kind == event.KindText {
				for _, it := range e.Timeline().Items {
					it.EachTool(func(tool *timeline.Tool) bool {
						tool.Status = timeline.StatusRunning
						return true
					})
				}
			}
		}), harness.OracleStatus},
		{"cancel leaves text uninterrupted", "seed004-cancel-during-text", wrap(func(e *engine.Engine, ev *event.Event) {
			e.Apply(ev)
			for _, it := range e.Timeline().Items {
				it.Interrupted = false
			}
		}), harness.OracleModel},
		{"cancel shows no notice", "seed004-cancel-during-text", wrap(func(e *engine.Engine, ev *event.Event) {
			e.Apply(ev)
			items := e.Timeline().Items
			if ev.Kind == event.KindCancel && len(items) > 0 {
				e.Timeline().Items = items[:len(items)-1]
			}
		}), harness.OracleModel},
		{"group of one", "", wrap(func(e *engine.Engine, ev *event.Event) {
			e.Apply(ev)
			for _, it := range e.Timeline().Items {
				if it.Kind == timeline.ItemToolGroup {
					it.Tools = it.Tools[:1]
				}
			}
		}), harness.OracleGroups},
		{"nondeterministic", "", func() func() harness.Engine {
			runs := 0
			return func() harness.Engine {
				runs++
				n := runs
				return broken{engine.New(engine.Options{}), func(e *engine.Engine, ev *event.Event) {
					if ev.Kind == event.KindText && n > 1 {
						ev2 := *ev
						ev2.Text += "!"
						ev = &ev2
					}
					e.Apply(ev)
				}}
			}
		}(), harness.OracleDeterminism},
	}
	traces := catalog(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.scenario
			if name == "" {
				name = "seed000-mixed-flow"
			}
			v := harness.Check(tt.engine, traces[name+".txtar"])
			found := false
			for _, x := range v {
				found = found || x.Oracle == tt.oracle
			}
			if !found {
				t.Errorf("oracle %s did not fire; violations: %v", tt.oracle, v)
			}
		})
	}
}

func TestViolationString(t *testing.T) {
	v := harness.Violation{Seq: 7, Oracle: harness.OracleNoLive, Detail: "tool a is still running after turn_end"}
	if got := v.String(); !strings.Contains(got, "after seq 7: no-live: tool a") {
		t.Errorf("String() = %q", got)
	}
}
