package harness_test

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
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

// Check replays one trace through fresh engines and returns every oracle
// that failed, each naming the event after which it failed.
func ExampleCheck() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "Read", Args: []byte(`{"file_path":"a.go"}`)},
		{Seq: 3, T: 2, Kind: event.KindToolDone, ID: "a", OK: true},
		{Seq: 4, T: 3, Kind: event.KindToolStart, ID: "b", Name: "Read", Args: []byte(`{"file_path":"b.go"}`)},
		{Seq: 5, T: 9, Kind: event.KindToolDone, ID: "b", Error: "no such file"},
		{Seq: 6, T: 10, Kind: event.KindTurnEnd},
	}
	reference := func() harness.Engine { return engine.New(engine.Options{}) }
	fmt.Println("reference:", len(harness.Check(reference, evs)), "violations")

	broken := func() harness.Engine { return forgetful{engine.New(engine.Options{})} }
	found := harness.Check(broken, evs)
	fmt.Println("broken:", len(found), "violations; the first:")
	fmt.Println(found[0])
	// Output:
	// reference: 0 violations
	// broken: 5 violations; the first:
	// after seq 5: model: after tool_done id="b" (seq 5) tool b differs from the model
	// (-want +got):
	//   tool a Read ok updates=0 end_t=2 duration=1
	// - tool b Read failed updates=0 error="no such file" end_t=9 duration=6
	// + tool b Read running updates=0
}

// CheckCase checks a trace file: a Case holds its events (and, for traces
// toolsim generated, the log faults of the reload check), and Options say
// what is checked and what the engine supports (here: stop at the first
// violation).
func ExampleCheckCase() {
	const trace = `{"trace":"toolsim/v1","source":"example"}
{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":4,"kind":"tool_start","id":"t1","name":"Bash","args":{"command":"make"}}
{"seq":3,"t":90,"kind":"tool_done","id":"t1","ok":false,"error":"exit 2"}
{"seq":4,"t":91,"kind":"turn_end"}
`
	_, evs, err := event.ReadAll(strings.NewReader(trace), event.ReaderOptions{Name: "make.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &harness.Case{Events: evs}
	opts := harness.Options{First: true}
	broken := func() harness.Engine { return forgetful{engine.New(engine.Options{})} }
	for _, v := range harness.CheckCase(broken, c, opts) {
		fmt.Println(v)
	}
	// Output:
	// after seq 3: model: after tool_done id="t1" (seq 3) tool t1 differs from the model
	// (-want +got):
	// - tool t1 Bash failed updates=0 error="exit 2" end_t=90 duration=86
	// + tool t1 Bash running updates=0
}

// External runs an engine written in any language over the
// toolsim-engine/1 protocol (docs/protocol.md). Its New method makes
// engines for Check, or for a campaign (package campaign) like an in-process constructor;
// Declared narrows the options to what the engine said it supports.
// (This example needs the engine's command, so it is not run.)
func ExampleExternal() {
	x := harness.External("python3", "examples/python/adapter.py")
	defer x.Close()
	info, err := x.Start()
	if err != nil {
		fmt.Println(err) // cannot start, or speaks another protocol
		return
	}
	opts := harness.Declared(harness.Options{}, info)
	sc := sim.Generate(7, sim.Options{Swarm: true})
	for _, v := range harness.CheckCase(x.New, harness.CaseOf(sc), opts) {
		fmt.Println(v)
	}
}
