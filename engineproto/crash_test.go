package engineproto_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/timeline"
)

// crashes is the reference engine with a crash that empties its
// timeline, counting its crashes.
type crashes struct {
	*engine.Engine
	n int
}

func (c *crashes) Crash() { c.n++ }

func (c *crashes) Timeline() *timeline.Timeline {
	if c.n > 0 {
		return &timeline.Timeline{Now: int64(c.n)}
	}
	return c.Engine.Timeline()
}

// TestServeCrash: Serve answers crash with the whole timeline of an
// engine that implements Crasher, and with an error naming the missing
// capability for one that does not.
func TestServeCrash(t *testing.T) {
	in := `{"type":"init","id":1,"protocol":"toolsim-engine/1"}
{"type":"event","id":2,"event":{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"grep"}}
{"type":"crash","id":3}
`
	tests := []struct {
		name string
		eng  func() engineproto.Engine
		want string // the crash reply
	}{
		{"a crasher", func() engineproto.Engine { return &crashes{Engine: engine.New(engine.Options{})} },
			`{"type":"timeline","id":3,"timeline":{"diagnostics":[],"format":"toolsim-timeline/1","items":[],"now":1}}`},
		{"no crash", func() engineproto.Engine { return engine.New(engine.Options{}) },
			`{"type":"error","id":3,"message":"this engine has no crash capability"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := engineproto.Serve(strings.NewReader(in), &out, engineproto.ServeOptions{
				New: func([]string) engineproto.Engine { return tt.eng() }, Capabilities: []string{engineproto.CapCrash}})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 3 || !strings.Contains(lines[0], `"crash"`) {
				t.Fatalf("want init_ok declaring crash, an event reply and a crash reply, got:\n%s", out.String())
			}
			if lines[2] != tt.want {
				t.Errorf("crash reply:\n got %s\nwant %s", lines[2], tt.want)
			}
		})
	}
}
