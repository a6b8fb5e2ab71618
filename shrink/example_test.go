package shrink_test

import (
	"fmt"
	"os"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/shrink"
)

// Shrink finds a smaller trace for which the predicate still reports the
// failure. Here the "failure" is any tool that fails; the shrinker keeps
// only what that needs, with short ids and empty args.
func ExampleShrink() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 1, Kind: event.KindText, Text: "Let me look."},
		{Seq: 3, T: 2, Kind: event.KindToolStart, ID: "toolu_01", Name: "Read", Args: []byte(`{"file_path":"a.go"}`)},
		{Seq: 4, T: 3, Kind: event.KindToolStart, ID: "toolu_02", Name: "Bash", Args: []byte(`{"command":"make"}`)},
		{Seq: 5, T: 9, Kind: event.KindToolDone, ID: "toolu_01", OK: true, Output: "package a"},
		{Seq: 6, T: 20, Kind: event.KindToolDone, ID: "toolu_02", Error: "exit 2"},
		{Seq: 7, T: 21, Kind: event.KindTurnEnd},
	}
	fails := func(evs []event.Event) bool {
		for _, ev := range evs {
			if ev.Kind == event.KindToolDone && !ev.OK {
				return true
			}
		}
		return false
	}
	res := shrink.Shrink(evs, fails, shrink.Options{})
	fmt.Printf("%d → %d events\n", len(evs), len(res.Events))
	_ = event.WriteAll(os.Stdout, nil, res.Events)
	// Output:
	// 7 → 1 events
	// {"seq":1,"t":20,"kind":"tool_done","id":"a","ok":false}
}
