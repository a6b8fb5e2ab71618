package rebuild_test

import (
	"bytes"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/store"
)

// store.Persist writes the log a live UI appends to while the events
// arrive; Rebuild reads it back into a timeline. Here the process died in
// the middle of writing the last record: the torn line is dropped and
// reported, and the unanswered call is resolved by the end-of-stream rule.
func ExampleRebuild() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 5, Kind: event.KindToolStart, ID: "t1", Name: "Bash", Args: []byte(`{"command":"make test"}`)},
		{Seq: 3, T: 900, Kind: event.KindToolDone, ID: "t1", OK: true, Output: "PASS"},
		{Seq: 4, T: 950, Kind: event.KindToolStart, ID: "t2", Name: "Read", Args: []byte(`{"file_path":"README.md"}`)},
	}
	p := store.Persist(evs, store.Options{})
	log := p.Log[:len(p.Log)-10] // torn: the last record lost its end

	res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{Name: "session.log"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, pr := range res.Problems {
		fmt.Println("problem:", pr)
	}
	fmt.Print(render.Render(res.Timeline(), render.Options{Width: 50}))
	// Output:
	// problem: line 5: torn_tail: the last line is cut short (143 bytes): dropped
	//   ✓ Bash  make test  895ms
}
