package importer_test

import (
	"fmt"
	"os"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// A Builder is the core of an importer: it numbers the events, keeps the
// trace clock non-decreasing (an earlier source time is clamped, the
// original kept as src_t), and collects the Problems an import reports
// instead of dropping a record.
func ExampleBuilder() {
	b := importer.NewBuilder("my-agent", importer.Options{Name: "session.log"})
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	b.Emit(b.Clock(t0, true), event.Event{Kind: event.KindToolStart, ID: "c1", Name: "grep", Args: []byte(`{}`)})
	b.Emit(b.Clock(t0.Add(-time.Second), true), event.Event{Kind: event.KindToolDone, ID: "c1", OK: true})
	_ = b.Problem(3, "unknown record type \"ping\"")

	res := b.Result()
	_ = event.WriteAll(os.Stdout, &res.Header, res.Events)
	for _, p := range res.Problems {
		fmt.Println("problem:", p)
	}
	// Output:
	// {"trace":"toolsim/v1","source":"my-agent"}
	// {"seq":1,"t":0,"kind":"tool_start","id":"c1","name":"grep","args":{}}
	// {"seq":2,"t":0,"kind":"tool_done","id":"c1","ok":true,"src_t":-1000}
	// problem: line 3: unknown record type "ping"
}
