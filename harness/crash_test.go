package harness_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// crashing is the reference engine with a crash: what each call still
// running or asking shows after it (to).
type crashing struct {
	*engine.Engine
	to timeline.Status
	tl *timeline.Timeline
}

// Crash turns every call still live into c.to; with to "" it drops every
// item that holds a live call.
func (c *crashing) Crash() {
	c.tl = &timeline.Timeline{Now: c.Engine.Timeline().Now}
	for _, it := range c.Engine.Timeline().Items {
		if c.to == "" && !it.EachTool(func(t *timeline.Tool) bool { return t.Status.Terminal() }) {
			continue
		}
		it = it.Clone()
		it.EachTool(func(t *timeline.Tool) bool {
			if !t.Status.Terminal() {
				t.Status = c.to
			}
			return true
		})
		c.tl.Items = append(c.tl.Items, it)
	}
}

// Timeline is the resumed timeline after a crash, else the live one.
func (c *crashing) Timeline() *timeline.Timeline {
	if c.tl != nil {
		return c.tl
	}
	return c.Engine.Timeline()
}

// crashingEngines are the served engines that declare crash, by what a
// live call shows after the crash.
var crashingEngines = map[string]timeline.Status{
	"crash-interrupted": timeline.StatusInterrupted,
	"crash-running":     timeline.StatusRunning,
	"crash-ok":          timeline.StatusOK,
	"crash-drops":       "",
}

func init() {
	for name, to := range crashingEngines {
		servedEngines[name] = func() harness.Engine { return &crashing{Engine: engine.New(engine.Options{}), to: to} }
	}
}

// TestCrashOracle: a campaign with the crash fault against engines that
// declare crash: one that shows the calls live at the crash interrupted
// passes; one that leaves them running, one that shows them finished and
// one that drops their rows fail the crash oracle, each with its own
// signature.
func TestCrashOracle(t *testing.T) {
	tests := []struct {
		engine, want string // want: "" to pass, else in the signature
	}{
		{"crash-interrupted", ""},
		{"crash-running", "a crash mid-turn, then resume: call … still shows running after the crash and resume"},
		{"crash-ok", "a crash mid-turn, then resume: call … shows ok after the crash, but its result never came (running when"},
		{"crash-drops", "a crash mid-turn, then resume: the row of call … is gone after the crash and resume ("},
	}
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			x := external(t, tt.engine)
			info, err := x.Start()
			if err != nil {
				t.Fatal(err)
			}
			camp := campaign.Campaign{Seeds: 40, Workers: 2, StopAtFirst: true, Sim: sim.Options{Faults: fault.List{fault.Order, fault.Crash}},
				Check: harness.Declared(harness.Options{}, info)}
			rep, err := camp.Run(x.New)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Faults[fault.Crash] == 0 {
				t.Fatalf("the crash fault was never injected in 40 seeds: %v", rep.Faults)
			}
			f := rep.Failure
			switch {
			case tt.want == "" && f != nil:
				t.Fatalf("want no failure, got %s: %s", f.Violation.Signature, f.Violation.Detail)
			case tt.want != "" && f == nil:
				t.Fatalf("want a crash-oracle failure %q, got none", tt.want)
			case tt.want != "" && (f.Violation.Oracle != harness.OracleCrash || !strings.HasPrefix(f.Violation.Signature, tt.want)):
				t.Fatalf("got %s (%s), want oracle crash and a signature starting %q", f.Violation.Signature, f.Violation.Oracle, tt.want)
			}
		})
	}
}
