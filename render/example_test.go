package render_test

import (
	"fmt"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Render draws a timeline as plain text at a width: a glyph for each
// tool's status, its summary fitted to the width, and its duration.
func ExampleRender() {
	tl := &timeline.Timeline{Now: 5000, Items: []*timeline.Item{
		{Kind: timeline.ItemUser, Text: "fix the build"},
		{Kind: timeline.ItemTool, Tool: &timeline.Tool{ID: "t1", Name: "Bash", Summary: "go build ./... && go vet ./... && go test ./...",
			Status: timeline.StatusFailed, StartT: 1000, EndT: 3500, DurationMS: 2500, Error: "exit 1", Output: "main.go:3: undefined: x"}},
		{Kind: timeline.ItemTool, Tool: &timeline.Tool{ID: "t2", Name: "Edit", Summary: "main.go", Status: timeline.StatusRunning, StartT: 4000}},
	}}
	fmt.Print(render.Render(tl, render.Options{Width: 40, Output: true}))
	// Output:
	// > fix the build
	//
	//   ✗ Bash  go build ./... && g…  2s 500ms
	//     exit 1
	//     │ main.go:3: undefined: x
	//
	//   ▶ Edit  main.go  1s
}

// Incremental renders a growing timeline, re-rendering only the items
// whose Version moved; its output always equals Render.
func ExampleIncremental() {
	tl := &timeline.Timeline{Items: []*timeline.Item{
		{Kind: timeline.ItemTool, Version: 1, Tool: &timeline.Tool{ID: "t1", Name: "Read", Summary: "go.mod", Status: timeline.StatusRunning}},
	}}
	r := render.NewIncremental(render.Options{Width: 40})
	fmt.Print("running:\n", r.Render(tl))

	tl.Now = 120
	tool := tl.Items[0].Tool
	tool.Status, tool.EndT, tool.DurationMS = timeline.StatusOK, 120, 120
	tl.Items[0].Version++
	fmt.Print("done:\n", r.Render(tl))
	fmt.Println(r.Render(tl) == render.Render(tl, render.Options{Width: 40}))
	// Output:
	// running:
	//   ▶ Read  go.mod  0ms
	// done:
	//   ✓ Read  go.mod  120ms
	// true
}
