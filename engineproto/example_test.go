package engineproto_test

import (
	"os"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
)

// Serve is the engine's side of toolsim-engine/1: it reads one message per
// line and answers each with one reply carrying the same id. An engine
// written in Go serves itself with it from main (os.Stdin, os.Stdout); here
// the messages come from a string, so the whole exchange is visible.
func ExampleServe() {
	messages := strings.Join([]string{
		`{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80,"meta_tools":null}}`,
		`{"type":"event","id":2,"event":{"seq":1,"t":0,"kind":"tool_start","id":"t1","name":"Read","args":{"file_path":"go.mod"}}}`,
		`{"type":"event","id":3,"event":{"seq":2,"t":30,"kind":"tool_done","id":"t1","ok":true}}`,
		`{"type":"render","id":4,"width":40}`,
	}, "\n")
	err := engineproto.Serve(strings.NewReader(messages), os.Stdout, engineproto.ServeOptions{
		New:    func(metaTools []string) engineproto.Engine { return engine.New(engine.Options{MetaTools: metaTools}) },
		Fields: []string{engineproto.FieldSummary, engineproto.FieldDuration},
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// {"type":"init_ok","id":1,"protocol":"toolsim-engine/1","capabilities":["timeline","render","batch","delta","snapshot"],"fields":["summary","duration_ms"]}
	// {"type":"timeline","id":2,"delta":{"items":{"0":{"kind":"tool","tool":{"id":"t1","name":"Read","start_t":0,"status":"running","summary":"go.mod"}}},"len":1,"now":0}}
	// {"type":"timeline","id":3,"delta":{"items":{"0":{"kind":"tool","tool":{"duration_ms":30,"end_t":30,"id":"t1","name":"Read","start_t":0,"status":"ok","summary":"go.mod"}}},"len":1,"now":30}}
	// {"type":"rendered","id":4,"text":"  ✓ Read  go.mod  30ms\n"}
}
