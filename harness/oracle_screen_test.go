package harness_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// screen is the reference engine as a page that misdraws its rows: draw
// rewrites a copy of each item before the oracles see it.
type screen struct {
	*engine.Engine
	draw func(it *timeline.Item) []*timeline.Item
}

func (s screen) Timeline() *timeline.Timeline {
	tl := *s.Engine.Timeline()
	tl.Items = nil
	for _, it := range s.Engine.Timeline().Items {
		tl.Items = append(tl.Items, s.draw(it.Clone())...)
	}
	return &tl
}

func page(draw func(it *timeline.Item) []*timeline.Item) func() harness.Engine {
	return func() harness.Engine { return screen{engine.New(engine.Options{}), draw} }
}

// restatus draws every tool shown with status from as to.
func restatus(from, to timeline.Status) func(it *timeline.Item) []*timeline.Item {
	return func(it *timeline.Item) []*timeline.Item {
		it.EachTool(func(t *timeline.Tool) bool {
			if t.Status == from {
				t.Status = to
			}
			return true
		})
		return []*timeline.Item{it}
	}
}

// trace numbers the events (seq 1, 2, … at t 0, 1, …) and reads them.
func trace(lines ...string) []event.Event {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, `{"seq":%d,"t":%d,%s`+"\n", i+1, i, l[1:])
	}
	_, evs, err := event.ReadAll(strings.NewReader(b.String()), event.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	return evs
}

var (
	failedCall = trace(`{"kind":"turn_start","role":"assistant"}`, `{"kind":"tool_start","id":"a","name":"search"}`,
		`{"kind":"tool_done","id":"a","ok":false,"error":"boom"}`, `{"kind":"turn_end"}`)
	cancelled = trace(`{"kind":"turn_start","role":"assistant"}`, `{"kind":"tool_start","id":"a","name":"search"}`, `{"kind":"cancel"}`)
	asked     = trace(`{"kind":"turn_start","role":"assistant"}`, `{"kind":"tool_start","id":"a","name":"rm"}`,
		`{"kind":"permission","id":"a","state":"asked"}`, `{"kind":"turn_end"}`)
)

// screenCases are pages with one rule broken (want: the screen oracle
// that fails) or kept (quiet: the one that must not).
var screenCases = []struct {
	name  string
	evs   []event.Event
	page  func() harness.Engine
	want  string // the screen oracle that fails; "" none
	quiet string // a screen oracle that must stay quiet
}{
	{"failed call drawn as done", failedCall, page(restatus(timeline.StatusFailed, timeline.StatusOK)), harness.OracleScreenFailure, ""},
	{"failed call drawn failed", failedCall, page(restatus("", "")), "", harness.OracleScreenFailure},
	{"row drawn twice", failedCall, page(func(it *timeline.Item) []*timeline.Item {
		if it.Kind == timeline.ItemTool {
			return []*timeline.Item{it, it.Clone()}
		}
		return []*timeline.Item{it}
	}), harness.OracleScreenOnce, ""},
	{"row never drawn", failedCall, page(func(it *timeline.Item) []*timeline.Item {
		if it.Kind == timeline.ItemTool {
			return nil
		}
		return []*timeline.Item{it}
	}), harness.OracleScreenOnce, ""},
	{"running after cancel", cancelled, page(restatus(timeline.StatusInterrupted, timeline.StatusRunning)), harness.OracleScreenSettled, ""},
	{"approval asked after cancel", cancelled, page(restatus(timeline.StatusInterrupted, timeline.StatusPending)), harness.OracleScreenSettled, ""},
	{"approval really awaited at turn end", asked, page(restatus(timeline.StatusInterrupted, timeline.StatusPending)), "", harness.OracleScreenSettled},
}

func TestScreenOracles(t *testing.T) {
	for _, tt := range screenCases {
		t.Run(tt.name, func(t *testing.T) {
			found := map[string]bool{}
			for _, v := range harness.CheckWith(tt.page, tt.evs, harness.Options{Screen: true}) {
				found[v.Oracle] = true
			}
			if tt.want != "" && !found[tt.want] {
				t.Errorf("want a %s violation, got %v", tt.want, found)
			}
			for _, o := range []string{harness.OracleScreenOnce, harness.OracleScreenSettled, harness.OracleScreenFailure} {
				if found[o] && (o != tt.want || o == tt.quiet) {
					t.Errorf("unexpected %s violation", o)
				}
			}
		})
	}
}

// TestScreenOraclesHoldOnReference: the reference engine draws what
// SPEC says, so the screen oracles stay quiet over 1,000 seeds of every
// feature and fault (the run is the documented check of docs/browser.md).
func TestScreenOraclesHoldOnReference(t *testing.T) {
	screens := []string{harness.OracleScreenOnce, harness.OracleScreenSettled, harness.OracleScreenFailure}
	for seed := range uint64(1000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true})
		for _, v := range harness.CheckWith(reference, sc.Events, harness.Options{Screen: true}) {
			if slices.Contains(screens, v.Oracle) {
				t.Fatalf("seed %d: %v", seed, v)
			}
		}
	}
}
