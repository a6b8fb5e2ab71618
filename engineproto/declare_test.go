package engineproto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
)

// failing is the reference engine that fails once it saw a tool_done.
type failing struct {
	*engine.Engine
	err error
}

func (f *failing) Apply(ev *event.Event) {
	f.Engine.Apply(ev)
	if ev.Kind == event.KindToolDone {
		f.err = errors.New("page error: console.error: boom")
	}
}

func (f *failing) Failed() error { return f.err }

func TestServeDeclaresAndFails(t *testing.T) {
	opts := engineproto.ServeOptions{
		New:    func([]string) engineproto.Engine { return &failing{Engine: engine.New(engine.Options{})} },
		Fields: []string{}, Full: true, NoGrouping: true,
		Features: []string{"tools", "cancel"}, Contract: []string{"unique-ids"}, Documented: []string{"open-after-turn"},
		ByDesign: []string{"results-at-step-end"}, Capabilities: []string{engineproto.CapScreen},
	}
	in := strings.Join([]string{
		`{"type":"init","id":1,"protocol":"toolsim-engine/1"}`,
		`{"type":"event","id":2,"event":` + start1 + `}`,
		`{"type":"event","id":3,"event":` + done1 + `}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := engineproto.Serve(strings.NewReader(in), &out, opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`{"type":"init_ok","id":1,"protocol":"toolsim-engine/1","capabilities":["timeline","render","batch","snapshot","screen"],"fields":[],"features":["tools","cancel"],"grouping":false,"contract":["unique-ids"],"documented":["open-after-turn"],"by_design":["results-at-step-end"]}`,
		"timeline",
		`{"type":"error","id":3,"message":"page error: console.error: boom"}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d replies, want %d:\n%s", len(lines), len(want), out.String())
	}
	lines[1] = lines[1][strings.Index(lines[1], `"type":"`)+8:][:8] // the kind of reply only
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("replies (-want +got):\n%s", d)
	}
}
