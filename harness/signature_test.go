package harness

import "testing"

// TestEngineFailureWhat: an engine failure's signature keeps what the
// engine answered, not the client's framing around it, so an external
// engine's own oracle (an agent's resume or mcp oracle) names the finding.
func TestEngineFailureWhat(t *testing.T) {
	tests := []struct {
		name, detail, want string
	}{
		{"an external engine's answer",
			`at the end of the stream: engine "bin/toolsim-agent --agent codex --resume", answering batch id=3, timeline 7 of 7: it answered error: resume oracle: call "call_1" shows failed, live it showed running (after /quit and codex resume --last)`,
			"engine failed: resume oracle: call … shows failed, live it showed running (after /quit and co…"},
		{"a failure at reset", `at reset: engine "python3 e.py", answering reset: it answered error: reset is broken`,
			"engine failed: reset is broken"},
		{"an in-process engine", "after tool_done (seq 4): the app exited (exit status 1)",
			"engine failed: the app exited (exit status N)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := whatOf(&Violation{Oracle: OracleEngine, Detail: tt.detail}); got != tt.want {
				t.Errorf("whatOf = %q, want %q", got, tt.want)
			}
		})
	}
}
