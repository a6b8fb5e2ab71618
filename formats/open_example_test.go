package formats_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// Open reads a trace in any format ("" detects it from the content): the
// header, then the events one at a time, and what the importer could not
// map as Problems (data, not text on stderr). This `codex exec --json`
// excerpt ends in a call without an id, which cannot be paired.
func ExampleOpen() {
	const log = `{"type":"thread.started","thread_id":"0000-example"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"go.mod\n","exit_code":0,"status":"completed"}}
{"type":"item.started","item":{"type":"command_execution","command":"go vet"}}
`
	src, err := formats.Open(strings.NewReader(log), "", importer.Options{Name: "run.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", src.Format, "synthetic clock:", src.Header.SyntheticClock())
	for _, p := range src.Problems {
		fmt.Printf("problem: line %d: %s\n", p.Line, p.Reason)
	}
	for {
		var ev event.Event
		err := src.Next(&ev)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err) // a *formats.NoEventsError when there is nothing to read
			return
		}
		fmt.Printf("seq %d t=%d %s id=%q\n", ev.Seq, ev.T, ev.Kind, ev.ID)
	}
	// Output:
	// format: codex-exec-json synthetic clock: true
	// problem: line 5: item.started: item without an id: cannot pair it
	// seq 1 t=1 turn_start id=""
	// seq 2 t=2 tool_start id="item_1"
	// seq 3 t=3 tool_done id="item_1"
}
