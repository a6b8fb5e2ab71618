package engine_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/timeline"
)

// referenceDelegation is the seed 003 guard written with encoding/json:
// the behaviour engine.Delegation must keep.
func referenceDelegation(details []byte) (*timeline.Delegation, bool) {
	var ds struct {
		UI json.RawMessage `json:"ui"`
	}
	if json.Unmarshal(details, &ds) != nil || len(ds.UI) == 0 || ds.UI[0] != '{' {
		return nil, false
	}
	var kind struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(ds.UI, &kind) != nil || kind.Kind != "agent_delegation" {
		return nil, false
	}
	var ui struct {
		Mode     *string         `json:"mode"`
		ActiveID json.RawMessage `json:"activeId"`
		Items    *[]struct {
			ID, Agent, Task, Status *string
			Preview                 json.RawMessage
		} `json:"items"`
	}
	if json.Unmarshal(ds.UI, &ui) != nil || ui.Mode == nil || ui.Items == nil {
		return nil, true
	}
	if m := *ui.Mode; m != "single" && m != "parallel" && m != "chain" {
		return nil, true
	}
	opt := func(raw json.RawMessage) string {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	d := &timeline.Delegation{Mode: *ui.Mode, ActiveID: opt(ui.ActiveID), Steps: []timeline.Step{}}
	for _, s := range *ui.Items {
		if s.ID == nil || s.Agent == nil || s.Task == nil || s.Status == nil {
			return nil, true
		}
		switch *s.Status {
		case "pending", "running", "ok", "error":
		default:
			return nil, true
		}
		d.Steps = append(d.Steps, timeline.Step{ID: *s.ID, Agent: *s.Agent, Task: *s.Task, Status: *s.Status, Preview: opt(s.Preview)})
	}
	return d, false
}

// foldedName reports whether a JSON document uses a contract name in
// another letter case (encoding/json matches those; the engine does not).
func foldedName(data []byte) bool {
	names := []string{"ui", "kind", "mode", "items", "activeId", "id", "agent", "task", "status", "preview"}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				for _, n := range names {
					if k != n && strings.EqualFold(k, n) {
						return true
					}
				}
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	var v any
	return json.Unmarshal(data, &v) == nil && walk(v)
}

// FuzzDelegation checks the reflection-free guard against the reference.
func FuzzDelegation(f *testing.F) {
	for _, s := range []string{
		`{"ui":{"kind":"agent_delegation","mode":"chain","activeId":"1","items":[{"id":"1","agent":"a","task":"t","status":"running","preview":"p"}]}}`,
		`{"ui":{"kind":"agent_delegation","mode":"single","items":[]}}`,
		`{"ui":{"kind":"agent_delegation","mode":"swarm","items":[]}}`,
		`{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":1}]}}`,
		`{"ui":{"kind":"agent_delegation","mode":"chain","items":null}}`,
		`{"ui":{"kind":"diff"}}`, `{"ui":"x"}`, `{}`, `[]`, `{"ui":{"kind":"agent_delegation","mode":"chain","mode":"single","items":[]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || foldedName(data) {
			return
		}
		gotD, gotBad := engine.Delegation(data)
		wantD, wantBad := referenceDelegation(data)
		if gotBad != wantBad {
			t.Fatalf("Delegation(%s): bad=%v, reference says %v", data, gotBad, wantBad)
		}
		if diff := cmp.Diff(wantD, gotD); diff != "" {
			t.Fatalf("Delegation(%s) (-reference +got):\n%s", data, diff)
		}
	})
}
