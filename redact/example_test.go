package redact_test

import (
	"fmt"
	"os"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/redact"
)

// Trace redacts a whole trace in place: the same secret gets the same
// placeholder everywhere, and ids, pairing and statuses are unchanged.
func ExampleTrace() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindToolStart, ID: "t1", Name: "Bash",
			Args: []byte(`{"command":"cat /home/alice/.env"}`)},
		{Seq: 2, T: 9, Kind: event.KindToolDone, ID: "t1", OK: true,
			Output: "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD\nowner: alice@example.com"},
	}
	r := redact.Trace(nil, evs)
	_ = event.WriteAll(os.Stdout, nil, evs)
	fmt.Println(r.Found)
	// Output:
	// {"seq":1,"t":0,"kind":"tool_start","id":"t1","name":"Bash","args":{"command":"cat [redacted:home:1]/.env"}}
	// {"seq":2,"t":9,"kind":"tool_done","id":"t1","output":"OPENAI_API_KEY=[redacted:openai-key:1]\nowner: [redacted:email:1]","ok":true}
	// map[email:1 home:1 openai-key:1]
}
