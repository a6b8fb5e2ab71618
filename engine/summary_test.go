package engine_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
)

func TestSummary(t *testing.T) {
	tests := []struct{ args, want string }{
		{`{"command":"ls -la\nrm x","path":"p"}`, "ls -la"},
		{`{"command":["bash","-lc","cargo test"]}`, "cargo test"},
		{`{"command":["git","status"]}`, "git status"},
		{`{"command":42,"file_path":"a.go"}`, "a.go"},
		{`{"pattern":"foo","path":"src/"}`, "src/"},
		{`{"pattern":"foo"}`, "foo"},
		{`{"query":"q","url":"u"}`, "q"},
		{`{"url":"https://x"}`, "https://x"},
		{`{"todos":[]}`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := engine.Summary([]byte(tt.args)); got != tt.want {
			t.Errorf("Summary(%s) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestDelegationGuards(t *testing.T) {
	tests := []struct {
		name    string
		details string
		steps   int
		bad     bool
	}{
		{"no ui", `{"other":1}`, -1, false},
		{"ui not an object", `{"ui":"x"}`, -1, false},
		{"other ui kind", `{"ui":{"kind":"diff"}}`, -1, false},
		{"valid", `{"ui":{"kind":"agent_delegation","mode":"single","items":[{"id":"1","agent":"a","task":"t","status":"pending"}]}}`, 1, false},
		{"empty items", `{"ui":{"kind":"agent_delegation","mode":"chain","items":[]}}`, 0, false},
		{"bad mode", `{"ui":{"kind":"agent_delegation","mode":"swarm","items":[]}}`, -1, true},
		{"items missing", `{"ui":{"kind":"agent_delegation","mode":"chain"}}`, -1, true},
		{"item not an object", `{"ui":{"kind":"agent_delegation","mode":"chain","items":["x"]}}`, -1, true},
		{"agent of wrong type", `{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":"1","agent":7,"task":"t","status":"ok"}]}}`, -1, true},
		{"bad status", `{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":"1","agent":"a","task":"t","status":"done"}]}}`, -1, true},
		{"preview of wrong type is ignored", `{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":"1","agent":"a","task":"t","status":"ok","preview":5}]}}`, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, bad := engine.Delegation([]byte(tt.details))
			steps := -1
			if d != nil {
				steps = len(d.Steps)
			}
			if bad != tt.bad || steps != tt.steps {
				t.Errorf("got steps=%d bad=%v, want steps=%d bad=%v", steps, bad, tt.steps, tt.bad)
			}
		})
	}
}
