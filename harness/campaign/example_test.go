package campaign_test

import (
	"fmt"
	"os"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

// forgetful is a deliberately broken engine: it wraps the reference engine
// and drops every failed result, so a failed tool looks as if it still ran.
type forgetful struct{ *engine.Engine }

func (f forgetful) Apply(ev *event.Event) {
	if ev.Kind == event.KindToolDone && !ev.OK {
		return
	}
	f.Engine.Apply(ev)
}

// A Campaign runs many seeded scenarios through an engine and reports the
// lowest failing seed, shrunk. In a Go test, campaign.Fuzz runs one and
// fails the test (examples cannot take a *testing.T):
//
//	func TestMyEngine(t *testing.T) {
//		campaign.Fuzz(t, func() harness.Engine { return myengine.New() }, campaign.Seeds(500))
//	}
func ExampleCampaign() {
	c := campaign.Campaign{
		Seeds: 30,
		Sim:   sim.Options{Swarm: true}, // Faults: nil injects none; Fuzz's default is every fault
	}
	rep, err := c.Run(func() harness.Engine { return engine.New(engine.Options{}) })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scenarios:", rep.Scenarios, "ok:", rep.OK())

	rep, err = c.Run(func() harness.Engine { return forgetful{engine.New(engine.Options{})} })
	if err != nil {
		fmt.Println(err)
		return
	}
	f := rep.Failure
	fmt.Printf("seed %d: %s, shrunk to %d events:\n", f.Seed, f.Violation.Oracle, len(f.Shrunk.Events))
	_ = event.WriteAll(os.Stdout, nil, f.Shrunk.Events)
	fmt.Println(f.ShrunkBy)
	// Output:
	// scenarios: 30 ok: true
	// seed 0: model, shrunk to 2 events:
	// {"seq":1,"t":121,"kind":"tool_start","id":"a","name":"read","args":{}}
	// {"seq":2,"t":291,"kind":"tool_done","id":"a","ok":false}
	// after seq 2: model: after tool_done id="a" (seq 2) tool a differs from the model
	// (-want +got):
	// - tool a read failed updates=0 end_t=291 duration=170
	// + tool a read running updates=0
}

// ShrinkCase cuts a failing trace down to the smallest one that still
// fails the same oracle, as toolsim shrink does with a captured bug trace.
func ExampleShrinkCase() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindText, Text: "Reading two files."},
		{Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "read"},
		{Seq: 3, T: 2, Kind: event.KindToolStart, ID: "b", Name: "read"},
		{Seq: 4, T: 3, Kind: event.KindToolDone, ID: "a", OK: true},
		{Seq: 5, T: 4, Kind: event.KindToolDone, ID: "b", OK: false},
		{Seq: 6, T: 5, Kind: event.KindTurnEnd},
	}
	broken := func() harness.Engine { return forgetful{engine.New(engine.Options{})} }
	found := harness.Check(broken, evs)
	s := campaign.ShrinkCase(broken, &harness.Case{Events: evs}, found[0].Oracle, harness.Options{})
	fmt.Printf("%d events → %d:\n", len(evs), len(s.Case.Events))
	_ = event.WriteAll(os.Stdout, nil, s.Case.Events)
	// Output:
	// 6 events → 2:
	// {"seq":1,"t":2,"kind":"tool_start","id":"a","name":"read","args":{}}
	// {"seq":2,"t":4,"kind":"tool_done","id":"a","ok":false}
}
