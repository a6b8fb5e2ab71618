package sim_test

import (
	"fmt"
	"os"
	"reflect"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sim"
)

// Generate plans a scenario from a seed (turns, batches of tools, their
// outcomes) and schedules it to a trace. The same seed and options give
// the same events on any machine.
func ExampleGenerate() {
	sc := sim.Generate(42, sim.Options{Tools: 2, Turns: 1})
	again := sim.Generate(42, sim.Options{Tools: 2, Turns: 1})
	fmt.Println("events:", len(sc.Events), "same again:", reflect.DeepEqual(sc.Events, again.Events))
	w := event.NewWriter(os.Stdout)
	for i := range sc.Events {
		if ev := &sc.Events[i]; ev.Kind == event.KindToolStart || ev.Kind == event.KindToolDone {
			_ = w.Write(ev)
		}
	}
	_ = w.Flush()
	// Output:
	// events: 16 same again: true
	// {"seq":7,"t":146,"kind":"tool_start","id":"call_1","name":"glob","args":{"path":"src/file_1.go","pattern":"TODO"},"batch":"msg_1_1"}
	// {"seq":8,"t":146,"kind":"tool_start","id":"call_2","name":"edit_file","args":{"path":"src/file_2.go","pattern":"TODO"},"batch":"msg_1_1"}
	// {"seq":12,"t":196,"kind":"tool_done","id":"call_1","output":"3 matches\n","ok":true,"duration_ms":195}
	// {"seq":15,"t":316,"kind":"tool_done","id":"call_2","ok":true}
}
