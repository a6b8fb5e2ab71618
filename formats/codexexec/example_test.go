package codexexec_test

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/formats/codexexec"
	"github.com/toolsim/toolsim/importer"
)

// An importer can be used directly when the format is known. A record it
// cannot map is reported as a Problem with its line, never dropped
// silently.
func ExampleImporter() {
	const log = `{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}
{"type":"item.completed","item":{"type":"command_execution","command":"ls"}}
{"type":"turn.completed"}
`
	var imp codexexec.Importer
	res, err := imp.Import(strings.NewReader(log), importer.Options{Name: "exec.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ev := range res.Events {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%d %s %s", ev.Seq, ev.Kind, ev.ID)))
	}
	for _, p := range res.Problems {
		fmt.Println("problem:", p)
	}
	// Output:
	// 1 turn_start
	// 2 tool_start item_1
	// 3 turn_end
	// problem: line 3: item.completed: item without an id: cannot pair it
}
