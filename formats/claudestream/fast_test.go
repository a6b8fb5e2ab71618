package claudestream

import (
	"testing"

	"github.com/toolsim/toolsim/internal/jsonscan/jsonscantest"
)

// The fast decoder must agree with encoding/json wherever it answers.

var fastSeeds = []string{
	`{"type":"assistant","message":{"id":"msg_1","model":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}],"stop_reason":null},"parent_tool_use_id":null,"session_id":"s","uuid":"u"}`,
	`{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,"num_turns":3,"total_cost_usd":0.0123,"result":"done","permission_denials":[{"tool_name":"Bash","tool_use_id":"t","tool_input":{"c":1}},null]}`,
	`{"type":"system","subtype":"init","cwd":"/w","tools":["Bash"],"model":"m","permissionMode":"default","claude_code_version":"2.0"}`,
	`{"duration_ms":1.5}`, `{"duration_ms":1e3}`, `{"total_cost_usd":"1"}`, `{"is_error":null}`, `{"message":null}`, `{"message":[]}`,
	`{"Type":"x"}`, `{"type":"a","type":"b"}`, `{"num_turns":-0}`, `{"total_cost_usd":-0}`, `[]`, `null`, "{\"type\":\"\xff\"}",
}

func FuzzFastDecoder(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { jsonscantest.Agree(t, data, fastLine) })
}

func TestFastDecoderAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		jsonscantest.Agree(t, []byte(s), fastLine)
	}
}
