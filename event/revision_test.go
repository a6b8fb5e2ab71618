package event_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
)

// TestRevision2Kinds: tool_update and compact decode, encode canonically
// (a tool_update writes args only when it has them) and are validated.
func TestRevision2Kinds(t *testing.T) {
	for _, tc := range []struct{ name, in, want, err string }{
		{"update with name and args",
			`{"seq":1,"t":0,"kind":"tool_update","args":{"command":"ls"},"name":"bash","id":"a","x":1}`,
			`{"seq":1,"t":0,"kind":"tool_update","id":"a","name":"bash","args":{"command":"ls"},"x":1}`, ""},
		{"update without args writes none", `{"seq":1,"t":0,"kind":"tool_update","id":"a","name":"bash"}`,
			`{"seq":1,"t":0,"kind":"tool_update","id":"a","name":"bash"}`, ""},
		{"update needs an id", `{"seq":1,"t":0,"kind":"tool_update","name":"bash"}`, "", `field "id"`},
		{"update args must be an object", `{"seq":1,"t":0,"kind":"tool_update","id":"a","args":[1]}`, "", `field "args"`},
		{"compact with a summary", `{"seq":1,"t":0,"kind":"compact","text":"Summary"}`, `{"seq":1,"t":0,"kind":"compact","text":"Summary"}`, ""},
		{"compact without one", `{"seq":1,"t":0,"kind":"compact"}`, `{"seq":1,"t":0,"kind":"compact"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, evs, err := event.ReadAll(strings.NewReader(tc.in+"\n"), event.ReaderOptions{Name: "t"})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !evs[0].Kind.Known() {
				t.Errorf("%s is not a known kind", evs[0].Kind)
			}
			if got := string(event.AppendEvent(nil, &evs[0])); got != tc.want {
				t.Errorf("encoded\n got %s\nwant %s", got, tc.want)
			}
			if err := event.Validate(&evs[0]); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestHeaderSyntheticClock(t *testing.T) {
	for meta, want := range map[string]bool{`{"clock":"synthetic"}`: true, `{"clock":"source"}`: false, `{}`: false, ``: false, `[1]`: false} {
		h := &event.Header{Trace: event.Version, Meta: []byte(meta)}
		if got := h.SyntheticClock(); got != want {
			t.Errorf("meta %s: SyntheticClock() = %v, want %v", meta, got, want)
		}
	}
	if (*event.Header)(nil).SyntheticClock() {
		t.Error("a nil header has a synthetic clock")
	}
}
