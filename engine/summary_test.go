package engine_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

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
	for _, s := range []string{`{"command":"ls"}`, `{"path":"a\"b","pattern":1}`, `{"x":{"command":"no"},"query":"q"}`, `{"url":"u","command":["sh","-c","x"]}`, `{"command":[1,2]}`, `{"p\u0061th":"esc"}`, `{`, `{"path":`, `[]`} {
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
