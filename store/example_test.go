package store_test

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/store"
)

// Persist replays a trace the way a live application writes its log: a
// header, then records as events arrive (a tool's record when it starts,
// its result when it ends). Expected lists the events the log still
// represents, for comparing a rebuild with what a live UI showed.
func ExamplePersist() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindUser, Text: "list the files"},
		{Seq: 2, T: 10, Kind: event.KindToolStart, ID: "t1", Name: "Bash", Args: []byte(`{"command":"ls"}`)},
		{Seq: 3, T: 60, Kind: event.KindToolDone, ID: "t1", OK: true, Output: "go.mod"},
	}
	p := store.Persist(evs, store.Options{})
	fmt.Print(string(p.Log))
	fmt.Println("expected events:", len(p.Expected))
	// Output:
	// {"log":"toolsim-log/1","t0":"2025-01-01T00:00:00.000Z","writer":"toolsim persist"}
	// {"v":1,"id":"r1","seq":1,"ts":"2025-01-01T00:00:00.000Z","type":"user_message","text":"list the files"}
	// {"v":1,"id":"r2","seq":2,"parent":"r1","ts":"2025-01-01T00:00:00.010Z","type":"tool_call","call_id":"t1","name":"Bash","args":{"command":"ls"}}
	// {"v":1,"id":"r3","seq":3,"parent":"r2","ts":"2025-01-01T00:00:00.060Z","type":"tool_result","call_id":"t1","output":"go.mod","ok":true}
	// expected events: 3
}
