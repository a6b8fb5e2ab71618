package executor_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/executor"
)

// lib stands for a Go agent library and its adapter: the library asks its
// model (here the kit's scripted stream, which an adapter would wrap in
// the library's model interface), runs the answer's calls on goroutines
// with tools whose body is the kit's gated Tool, reports each result to a
// callback, and asks again. The callbacks record into turn.UI.
type lib struct{}

func (lib) Run(ctx context.Context, turn *executor.Turn) error {
	for {
		var calls []executor.Part
		for p := range turn.Stream(ctx) {
			switch p.Kind {
			case executor.PartText:
				turn.UI.Text(p.Text) // OnTextDelta
			case executor.PartCall:
				turn.UI.Call(p.ID, p.Name) // OnToolCall
				calls = append(calls, p)
			case executor.PartEnd:
				if p.Err != nil {
					turn.UI.Interrupted() // the run returned context.Canceled
					return p.Err
				}
			}
		}
		if len(calls) == 0 {
			turn.UI.Done() // the run completed
			return nil
		}
		var wg sync.WaitGroup
		for _, c := range calls {
			wg.Go(func() {
				out := turn.Tool(ctx, c.ID)               // the tool's Run
				turn.UI.Result(c.ID, out.Output, out.Err) // OnToolResult
				turn.Reported(c.ID)
			})
		}
		wg.Wait()
	}
}

// An engine that runs a library as a trace says: here the second call
// finishes first, while both run on goroutines.
func ExampleNew() {
	e := executor.New(lib{}, executor.Config{})
	defer e.Close()
	tls, err := e.Replay([]event.Event{
		{Seq: 1, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 5, Kind: event.KindText, Text: "Checking."},
		{Seq: 3, T: 10, Kind: event.KindToolStart, ID: "a", Name: "grep", Args: []byte(`{}`)},
		{Seq: 4, T: 10, Kind: event.KindToolStart, ID: "b", Name: "read", Args: []byte(`{}`)},
		{Seq: 5, T: 40, Kind: event.KindToolDone, ID: "b", OK: true, Output: "README"},
		{Seq: 6, T: 90, Kind: event.KindToolDone, ID: "a", OK: false, Error: "exit 2"},
		{Seq: 7, T: 95, Kind: event.KindTurnEnd},
	}, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, tl := range tls {
		fmt.Printf("after %d:", i+1)
		for _, it := range tl.Items {
			if it.Tool != nil {
				fmt.Printf(" [%s %s]", it.Tool.ID, it.Tool.Status)
			} else {
				fmt.Printf(" [%s]", it.Kind)
			}
		}
		fmt.Println()
	}
	// Output:
	// after 1:
	// after 2: [assistant]
	// after 3: [assistant] [a running]
	// after 4: [assistant] [a running] [b running]
	// after 5: [assistant] [a running] [b ok]
	// after 6: [assistant] [a failed] [b ok]
	// after 7: [assistant] [a failed] [b ok] [separator]
	// after 8: [assistant] [a failed] [b ok] [separator]
}
