package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/render"
)

// FuzzEngine drives the engine and the renderer with whatever events
// arbitrary bytes decode to (bad lines are skipped): no input may make
// either panic or hang, and the timeline must always encode.
func FuzzEngine(f *testing.F) {
	for _, data := range scenarioFiles(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"seq":1,"t":0,"kind":"tool_done","id":"a","ok":true}` + "\n" + `{"seq":2,"t":1,"kind":"tool_start","id":"a","name":"x","parent":"a"}`))
	f.Add([]byte(`{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"Terminal","args":{}}` + "\n" +
		`{"seq":2,"t":1,"kind":"tool_update","id":"a","name":"bash","args":{"command":"ls"}}` + "\n" +
		`{"seq":3,"t":2,"kind":"compact","text":"Summary:\n1. x"}` + "\n" + `{"seq":4,"t":3,"kind":"tool_update","id":"z"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := engine.New(engine.Options{})
		inc := render.NewIncremental(render.Options{Width: 40, Output: true})
		for _, ev := range looseEvents(data, 5000) {
			e.Apply(&ev)
			inc.Render(e.Timeline())
		}
		e.Finish()
		if got, want := inc.Render(e.Timeline()), render.Render(e.Timeline(), render.Options{Width: 40, Output: true}); got != want {
			t.Fatalf("incremental render differs from a fresh one:\n%s\n---\n%s", got, want)
		}
		if _, err := json.Marshal(e.Timeline()); err != nil {
			t.Fatal(err)
		}
	})
}
