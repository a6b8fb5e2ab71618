package engine_test

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
)

// The reference engine applies events one at a time and keeps a timeline;
// render draws it. Two calls of one batch form a group; Finish applies the
// end-of-stream rule to whatever is still running.
func Example() {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 10, Kind: event.KindToolStart, ID: "a", Name: "Read", Batch: "b1", Args: []byte(`{"file_path":"go.mod"}`)},
		{Seq: 3, T: 11, Kind: event.KindToolStart, ID: "b", Name: "Grep", Batch: "b1", Args: []byte(`{"pattern":"TODO"}`)},
		{Seq: 4, T: 250, Kind: event.KindToolDone, ID: "b", OK: true, Output: "main.go:3: TODO"},
		{Seq: 5, T: 1300, Kind: event.KindToolDone, ID: "a", OK: true, Output: "module example"},
		{Seq: 6, T: 1400, Kind: event.KindToolStart, ID: "c", Name: "Bash", Args: []byte(`{"command":"go test ./..."}`)},
	}
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	fmt.Println("live:", strings.Join(e.Live(), ","))
	fmt.Print(render.Render(e.Timeline(), render.Options{Width: 60}))

	e.Finish() // the stream ended with Bash still running
	fmt.Println("after Finish:")
	fmt.Print(render.Render(e.Timeline(), render.Options{Width: 60, Output: true}))
	// Output:
	// live: c
	//   ⫘ 2 tools  1s 290ms
	//     ✓ Read  go.mod           1s 290ms
	//     ✓ Grep  TODO             239ms
	//
	//   ▶ Bash  go test ./...  0ms
	// after Finish:
	//   ⫘ 2 tools  1s 290ms
	//     ✓ Read  go.mod           1s 290ms
	//       │ module example
	//     ✓ Grep  TODO             239ms
	//       │ main.go:3: TODO
	//
	//   ⋯ Bash  go test ./...
	//
	//   ⋯ unfinished: the input ended before 1 tool finished
}
