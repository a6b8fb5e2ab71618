package event_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
)

// TestUnknownKinds: an event of an unknown kind is kept, and Warn is told
// of the first event of each unknown kind with the file, line and kind;
// with StrictKinds every such line is a *DecodeError wrapping
// ErrUnknownKind, and the reader goes on to the next line.
func TestUnknownKinds(t *testing.T) {
	trace := strings.Join([]string{
		`{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`,
		`{"seq":2,"t":0,"kind":"tool_strat","id":"a"}`,
		`{"seq":3,"t":0,"kind":"tool_strat","id":"b"}`,
		`{"seq":4,"t":0,"kind":"telemetry"}`,
		`{"seq":5,"t":0,"kind":"turn_end"}`,
	}, "\n") + "\n"
	const known = "known: turn_start, user, thinking, text, tool_start, tool_progress, tool_done, permission, cancel, error, turn_end, tool_update, compact"
	tests := []struct {
		name     string
		strict   bool
		warnings []string // what Warn is told
		errors   []string // what Next returns
		kinds    []event.Kind
	}{
		{"warned once per kind, kept", false, []string{
			`t.jsonl:line 2: field "kind": unknown event kind "tool_strat" (did you mean "tool_start"? ` + known + `)`,
			`t.jsonl:line 4: field "kind": unknown event kind "telemetry" (` + known + `)`,
		}, nil, []event.Kind{event.KindTurnStart, "tool_strat", "tool_strat", "telemetry", event.KindTurnEnd}},
		{"strict: every line an error", true, nil, []string{
			`t.jsonl:line 2: field "kind": unknown event kind "tool_strat" (did you mean "tool_start"? ` + known + `)`,
			`t.jsonl:line 3: field "kind": unknown event kind "tool_strat" (did you mean "tool_start"? ` + known + `)`,
			`t.jsonl:line 4: field "kind": unknown event kind "telemetry" (` + known + `)`,
		}, []event.Kind{event.KindTurnStart, event.KindTurnEnd}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warnings, errs []string
			opts := event.ReaderOptions{Name: "t.jsonl", StrictKinds: tt.strict, Warn: func(w *event.DecodeError) {
				if !errors.Is(w, event.ErrUnknownKind) {
					t.Errorf("warning %v does not wrap ErrUnknownKind", w)
				}
				warnings = append(warnings, w.Error())
			}}
			r := event.NewReader(strings.NewReader(trace), opts)
			var kinds []event.Kind
			for {
				var ev event.Event
				err := r.Next(&ev)
				if err == io.EOF {
					break
				}
				if err != nil {
					if !errors.Is(err, event.ErrUnknownKind) {
						t.Fatalf("error %v does not wrap ErrUnknownKind", err)
					}
					errs = append(errs, err.Error())
					continue
				}
				kinds = append(kinds, ev.Kind)
			}
			if d := cmp.Diff(tt.warnings, warnings); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.errors, errs); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.kinds, kinds); d != "" {
				t.Errorf("events read (-want +got):\n%s", d)
			}
		})
	}
}

func TestNearestKind(t *testing.T) {
	tests := []struct {
		name string
		kind event.Kind
		want event.Kind // "" for no suggestion
	}{
		{"swapped letters", "tool_strat", event.KindToolStart},
		{"a letter dropped", "tool_don", event.KindToolDone},
		{"a letter added", "texts", event.KindText},
		{"upper case", "TURN_END", event.KindTurnEnd},
		{"hyphen for underscore", "tool-progress", event.KindToolProgress},
		{"nothing near", "telemetry", ""},
		{"short and far", "x", ""},
		{"a known kind needs none", event.KindText, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := event.NearestKind(tt.kind)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("NearestKind(%q) = %q, %v; want %q", tt.kind, got, ok, tt.want)
			}
		})
	}
}

// TestKindsAreKnown: Kinds lists exactly the kinds Known accepts.
func TestKindsAreKnown(t *testing.T) {
	kinds := event.Kinds()
	if len(kinds) != 13 {
		t.Errorf("Kinds() has %d kinds, want the 13 of revision 2", len(kinds))
	}
	for _, k := range kinds {
		if !k.Known() {
			t.Errorf("%q is listed but not Known", k)
		}
	}
}
