package timeline_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolsim/toolsim/timeline"
)

// A timeline's JSON encoding is the contract engines are compared on:
// sorted keys, explicit statuses, absent means zero. Versions are not part
// of it.
func ExampleTimeline_MarshalJSON() {
	tl := &timeline.Timeline{Now: 40, Items: []*timeline.Item{
		{Kind: timeline.ItemTool, Version: 3, Tool: &timeline.Tool{
			ID: "t1", Name: "Read", Summary: "go.mod", Status: timeline.StatusOK, StartT: 5, EndT: 40, DurationMS: 35}},
	}}
	data, err := json.Marshal(tl)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))

	var back timeline.Timeline
	if err := json.Unmarshal(data, &back); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(back.Items[0].Tool.Status, back.Items[0].Tool.Status.Terminal(), back.Items[0].Live())
	// Output:
	// {"diagnostics":[],"format":"toolsim-timeline/1","items":[{"kind":"tool","tool":{"duration_ms":35,"end_t":40,"id":"t1","name":"Read","start_t":5,"status":"ok","summary":"go.mod"}}],"now":40}
	// ok true false
}
