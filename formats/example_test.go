package formats_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// Detect picks the importer from a file's first bytes (never its name);
// Import maps the source's records to canonical events and lists what it
// could not map as Problems instead of dropping it. This excerpt has the
// shape of `codex exec --json` output.
func ExampleDetect() {
	const log = `{"type":"thread.started","thread_id":"0000-example"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'go vet ./...'","aggregated_output":"","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'go vet ./...'","aggregated_output":"","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"go vet is clean."}}
{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":5}}
`
	imp, err := formats.Detect([]byte(log))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := imp.Import(strings.NewReader(log), importer.Options{Name: "run.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", imp.Name(), "problems:", len(res.Problems))
	if err := event.WriteAll(os.Stdout, &res.Header, res.Events); err != nil {
		fmt.Println(err)
	}
	// Output:
	// format: codex-exec-json problems: 0
	// {"trace":"toolsim/v1","source":"codex","meta":{"clock":"synthetic","format":"codex-exec-json","ignored":{"thread.started":1},"thread_id":"0000-example"}}
	// {"seq":1,"t":1,"kind":"turn_start","role":"assistant"}
	// {"seq":2,"t":2,"kind":"tool_start","id":"item_1","name":"shell","args":{"command":"bash -lc 'go vet ./...'"},"item_type":"command_execution"}
	// {"seq":3,"t":3,"kind":"tool_done","id":"item_1","ok":true,"exit_code":0,"status":"completed"}
	// {"seq":4,"t":4,"kind":"text","text":"go vet is clean."}
	// {"seq":5,"t":5,"kind":"turn_end","usage":{"input_tokens":10,"output_tokens":5}}
}

// Names lists every format the registry knows, the canonical one included.
func ExampleNames() {
	fmt.Println(strings.Join(formats.Names(), "\n"))
	// Output:
	// toolsim
	// vcr-cassette
	// gemini-cli
	// opencode-export
	// acp
	// anthropic-sse
	// openai-responses-sse
	// openai-chat-sse
	// codex-exec-json
	// codex-tui-session-log
	// codex-rollout
	// claude-transcript
	// claude-stream-json
}
