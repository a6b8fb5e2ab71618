package engineproto_test

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
)

// previewing is the reference engine that records what Serve previewed
// and what it applied, in one log.
type previewing struct {
	*engine.Engine
	log *[]string
}

func (p previewing) Preview(evs []event.Event) {
	var ids []string
	for _, ev := range evs {
		ids = append(ids, ev.ID)
	}
	*p.log = append(*p.log, "preview "+strings.Join(ids, ","))
}

func (p previewing) Apply(ev *event.Event) {
	*p.log = append(*p.log, "apply "+ev.ID)
	p.Engine.Apply(ev)
}

// TestPreviewSeesTheWholeBatchFirst: a Previewer gets every event of a
// batch before the first is applied, and each lone event before it is.
func TestPreviewSeesTheWholeBatchFirst(t *testing.T) {
	var log []string
	in := strings.Join([]string{
		`{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80}}`,
		`{"type":"batch","id":2,"events":[{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"grep"},{"seq":2,"t":0,"kind":"tool_start","id":"b","name":"grep"}]}`,
		`{"type":"event","id":3,"event":{"seq":3,"t":1,"kind":"tool_done","id":"a","ok":true}}`,
	}, "\n")
	err := engineproto.Serve(strings.NewReader(in), io.Discard, engineproto.ServeOptions{
		New: func([]string) engineproto.Engine { return previewing{engine.New(engine.Options{}), &log} },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"preview a,b", "apply a", "apply b", "preview a", "apply a"}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("what the engine saw (-want +got):\n%s", diff)
	}
}

// writes counts the writes that reach it.
type writes struct{ n int }

func (w *writes) Write(p []byte) (int, error) { w.n++; return len(p), nil }

// TestFlushEach: with FlushEach each timeline reply of a batch reaches
// the output on its own; without it the batch's replies go together.
func TestFlushEach(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80}}`,
		`{"type":"batch","id":2,"events":[{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"grep"},{"seq":2,"t":0,"kind":"tool_start","id":"b","name":"grep"},{"seq":3,"t":1,"kind":"tool_done","id":"a","ok":true}]}`,
	}, "\n")
	for _, tt := range []struct {
		name  string
		flush bool
		want  int
	}{{"together", false, 2}, {"each", true, 4}} {
		t.Run(tt.name, func(t *testing.T) {
			var w writes
			err := engineproto.Serve(strings.NewReader(in), &w, engineproto.ServeOptions{
				New:       func([]string) engineproto.Engine { return engine.New(engine.Options{}) },
				FlushEach: tt.flush,
			})
			if err != nil {
				t.Fatal(err)
			}
			if w.n != tt.want {
				t.Errorf("%d writes reached the output, want %d (init_ok, then the batch's 3 replies)", w.n, tt.want)
			}
		})
	}
}
