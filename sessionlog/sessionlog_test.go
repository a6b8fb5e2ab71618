package sessionlog_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sessionlog"
)

// trace builds events from compact steps: "s:ID" starts a call, "s:ID:K"
// starts one whose "call" argument is K, "ok:ID" and "fail:ID" answer
// it, "cancel" cancels the turn, "end" ends it.
func trace(steps ...string) []event.Event {
	evs := []event.Event{{Kind: event.KindTurnStart, Role: event.RoleAssistant}}
	for _, st := range steps {
		parts := strings.Split(st, ":")
		var ev event.Event
		switch parts[0] {
		case "s":
			ev = event.Event{Kind: event.KindToolStart, ID: parts[1], Name: "read"}
			if len(parts) == 3 {
				ev.Args = []byte(`{"call":"` + parts[2] + `"}`)
			}
		case "ok", "fail":
			ev = event.Event{Kind: event.KindToolDone, ID: parts[1], OK: parts[0] == "ok", Output: "x"}
			if !ev.OK {
				ev.Error = "boom"
			}
		case "cancel":
			ev = event.Event{Kind: event.KindCancel}
		case "end":
			ev = event.Event{Kind: event.KindTurnEnd}
		}
		evs = append(evs, ev)
	}
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(i)
	}
	return evs
}

// canonical writes evs as a canonical trace, the log Compare imports.
func canonical(t *testing.T, evs []event.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	w := event.NewWriter(&b)
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return b.Bytes()
}

func TestCompare(t *testing.T) {
	sent := trace("s:a", "s:b", "ok:b", "fail:a", "end")
	tests := []struct {
		name   string
		logged []event.Event
		want   string // "" for no divergence
	}{
		{"same calls, the app's own ids", trace("s:x:a", "s:y:b", "ok:y", "fail:x", "end"), ""},
		{"same calls, same ids", trace("s:a", "s:b", "ok:b", "fail:a", "end"), ""},
		{"a call missing", trace("s:b", "ok:b", "end"), `call "a" is not in the session log (failed as sent)`},
		{"a call in another state", trace("s:a", "s:b", "ok:b", "ok:a", "end"), `call "a" is ok in the session log, failed as sent`},
		{"a failed call logged as interrupted", trace("s:a", "s:b", "ok:b", "cancel"), `call "a" is interrupted in the session log, failed as sent`},
		{"calls in another order", trace("s:b", "s:a", "ok:b", "fail:a", "end"), `the session log puts call "b" before call "a", sent after it`},
		{"a call never sent", trace("s:a", "s:b", "ok:b", "fail:a", "s:c", "ok:c", "end"), `the session log has a call "c" toolsim never sent (ok)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sessionlog.Compare(sent, "log.jsonl", canonical(t, tt.logged), "toolsim")
			var d *sessionlog.Divergence
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("want no divergence, got %v", err)
			case tt.want != "" && (!errors.As(err, &d) || d.What != tt.want || d.Log != "log.jsonl"):
				t.Fatalf("got %v, want the divergence %q of log.jsonl", err, tt.want)
			}
		})
	}
}

// TestCompareImport: a log that does not import, or that the importer
// only partly read, is a divergence that says so and names where.
func TestCompareImport(t *testing.T) {
	sent := trace("s:a", "ok:a", "end")
	tests := []struct {
		name, from, data, want string
	}{
		{"not the format", "codex-rollout", "not json\n", "the importer skipped or partly read 1 record(s) of the session log; the first, line 1"},
		{"no such format", "no-such", "{}\n", "the session log does not import"},
		{"a record skipped", "claude-transcript",
			`{"type":"assistant","uuid":"1","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"a","name":"read","input":{}}]}}
{"type":"user","uuid":"2","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]}}
{"type":"assistant","uuid":"3",
`, "the importer skipped or partly read 1 record(s) of the session log; the first, line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sessionlog.Compare(sent, "log", []byte(tt.data), tt.from)
			var d *sessionlog.Divergence
			if !errors.As(err, &d) || !strings.HasPrefix(d.What, tt.want) {
				t.Fatalf("got %v, want a divergence starting %q", err, tt.want)
			}
		})
	}
}
