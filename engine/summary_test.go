package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
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
		{`{"absolute_path":"/w/a.go"}`, "/w/a.go"},
		{`{"description":"Find the config loader","prompt":"Look for…","subagent_type":"general-purpose"}`, "Find the config loader"},
		{``, ""},
	}
	for _, tt := range tests {
		if got := engine.Summary([]byte(tt.args)); got != tt.want {
			t.Errorf("Summary(%s) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestSummaryDelegationArgs: arguments of seed 003's delegation shape
// (getAgentDelegationArgs) give toolTitle's title; any others keep the
// ordinary rule.
func TestSummaryDelegationArgs(t *testing.T) {
	const at = `{"agent":"a","task":"t"}`
	tests := []struct{ name, args, want string }{
		{"chain", `{"chain":[` + at + `,` + at + `,` + at + `]}`, "chain (3 steps)"},
		{"chain of one keeps the seed's wording", `{"chain":[` + at + `]}`, "chain (1 steps)"},
		{"tasks", `{"tasks":[` + at + `,` + at + `]}`, "parallel (2 tasks)"},
		{"single agent", `{"agent":"reviewer","task":"Review the diff"}`, "reviewer"},
		{"chain before tasks and agent", `{"agent":"x","task":"y","tasks":[` + at + `],"chain":[` + at + `,` + at + `]}`, "chain (2 steps)"},
		{"tasks before agent", `{"agent":"x","task":"y","tasks":[` + at + `]}`, "parallel (1 tasks)"},
		{"empty chain, then tasks", `{"chain":[],"tasks":[` + at + `]}`, "parallel (1 tasks)"},
		{"empty strings in items count", `{"chain":[{"agent":"","task":""}]}`, "chain (1 steps)"},
		{"item members after others", `{"chain":[{"id":1,"task":"t","agent":"a","x":[{}]}]}`, "chain (1 steps)"},
		{"bad chain item, agent and task", `{"chain":["x"],"agent":"a","task":"t"}`, "a"},
		{"agent of wrong type in an item", `{"chain":[{"agent":1,"task":"t"}],"description":"d"}`, "d"},
		{"item without task", `{"tasks":[{"agent":"a"}],"description":"d"}`, "d"},
		{"item an array", `{"tasks":[["a","t"]]}`, ""},
		{"item null", `{"chain":[null]}`, ""},
		{"chain not an array", `{"chain":{"agent":"a","task":"t"},"path":"p"}`, "p"},
		{"agent without task", `{"agent":"a","description":"d"}`, "d"},
		{"agent with empty task", `{"agent":"a","task":""}`, ""},
		{"empty agent", `{"agent":"","task":"t","query":"q"}`, "q"},
		{"agent not a string", `{"agent":7,"task":"t"}`, ""},
		{"task not a string", `{"agent":"a","task":["t"]}`, ""},
		{"agent beside an empty tasks array", `{"agent":"a","tasks":[]}`, "a"},
		{"shape without a title keeps the ordinary rule", `{"tasks":[],"description":"d"}`, "d"},
		{"shape before command", `{"command":"ls","agent":"a","task":"t"}`, "a"},
		{"first line of the agent", `{"agent":"\nscout\nextra","task":"t"}`, "scout"},
		{"escaped member name", `{"\u0061gent":"a","task":"t"}`, "a"},
		{"repeated name: the last counts", `{"agent":"a","task":"t","agent":"b"}`, "b"},
		{"nested chain does not count", `{"x":{"chain":[` + at + `]}}`, ""},
		{"truncated chain", `{"chain":[` + at + `,`, ""},
		{"sub-agent Task args unchanged", `{"description":"Find the loader","prompt":"p","subagent_type":"general-purpose"}`, "Find the loader"},
		{"bash args unchanged", `{"command":"go test ./...","description":"Run tests"}`, "go test ./..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, engine.Summary([]byte(tt.args))); diff != "" {
				t.Errorf("Summary(%s) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

func TestSummaryOfSearchTools(t *testing.T) {
	args := []byte(`{"pattern":"func main","path":"src/"}`)
	for name, want := range map[string]string{"Grep": "func main", "search_file_content": "func main", "grep_search": "func main", "grep": "src/", "": "src/"} {
		if got := engine.SummaryOf(name, args); got != want {
			t.Errorf("SummaryOf(%q) = %q, want %q", name, got, want)
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

// FuzzSummary checks the hand-written member scan against encoding/json on
// well-formed objects, and that malformed bytes never panic.
func FuzzSummary(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"path":"a\"b","pattern":1}`, `{"x":{"command":"no"},"query":"q"}`, `{"url":"u","command":["sh","-c","x"]}`, `{"command":[1,2]}`, `{"p\u0061th":"esc"}`, `{`, `{"path":`, `[]`, `{"chain":[{"agent":"a","task":"t"}],"command":"ls"}`, `{"agent":"a","task":"t","tasks":[]}`, `{"tasks":[{"agent":"a","task":1}],"query":"q"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		got := engine.Summary(args)
		var m map[string]any
		// The reader guarantees UTF-8; encoding/json would rewrite bad bytes.
		if !utf8.Valid(args) || json.Unmarshal(args, &m) != nil || hasDupKeys(args) {
			return
		}
		if want := referenceSummary(m); got != want {
			t.Fatalf("Summary(%s) = %q, reference says %q", args, got, want)
		}
	})
}

// referenceSummary is the documented rule written the slow, obvious way.
func referenceSummary(m map[string]any) string {
	first := func(s string) string {
		s = strings.TrimLeft(s, "\n")
		s, _, _ = strings.Cut(s, "\n")
		return strings.TrimRight(s, "\r")
	}
	if s := referenceTitle(m); s != "" {
		return first(s)
	}
	switch c := m["command"].(type) {
	case string:
		if c != "" {
			return first(c)
		}
	case []any:
		var argv []string
		for _, a := range c {
			s, ok := a.(string)
			if !ok {
				argv = nil
				break
			}
			argv = append(argv, s)
		}
		if len(c) == len(argv) {
			s := strings.Join(argv, " ")
			if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") {
				s = argv[2]
			}
			if s != "" {
				return first(s)
			}
		}
	}
	for _, k := range []string{"path", "file_path", "pattern", "query", "url"} {
		if s, ok := m[k].(string); ok && s != "" {
			return first(s)
		}
	}
	return ""
}

// referenceTitle is seed 003's getAgentDelegationArgs and toolTitle,
// transcribed.
func referenceTitle(m map[string]any) string {
	items := func(v any) ([]any, bool) {
		a, ok := v.([]any)
		for _, it := range a {
			o, _ := it.(map[string]any)
			_, agentOK := o["agent"].(string)
			_, taskOK := o["task"].(string)
			ok = ok && agentOK && taskOK
		}
		return a, ok
	}
	chain, chainOK := items(m["chain"])
	tasks, tasksOK := items(m["tasks"])
	agent, _ := m["agent"].(string)
	task, _ := m["task"].(string)
	switch {
	case !chainOK && !tasksOK && (agent == "" || task == ""):
		return ""
	case len(chain) > 0:
		return fmt.Sprintf("chain (%d steps)", len(chain))
	case len(tasks) > 0:
		return fmt.Sprintf("parallel (%d tasks)", len(tasks))
	}
	return agent
}

// hasDupKeys reports whether the top-level object repeats a key (where
// encoding/json keeps the last and Summary the first).
func hasDupKeys(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		if seen[k.(string)] {
			return true
		}
		seen[k.(string)] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
