package engine_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/render"
)

// Events of a three-step delegation call (seed 003).
const (
	chainStart = `{"kind":"tool_start","id":"a","name":"task","args":{"chain":[` +
		`{"agent":"scout","task":"Map the loader"},{"agent":"coder","task":"Port it"},{"agent":"tester","task":"Test it"}]}}`
	chainProgress = `{"kind":"tool_progress","id":"a","details":{"ui":{"kind":"agent_delegation","mode":"chain","activeId":"2","items":[` +
		`{"id":"1","agent":"scout","task":"Map the loader","status":"ok"},{"id":"2","agent":"coder","task":"Port it","status":"running"},` +
		`{"id":"3","agent":"tester","task":"Test it","status":"pending"}]}}}`
	badProgress = `{"kind":"tool_progress","id":"a","output":"x","details":{"ui":{"kind":"agent_delegation","mode":"swarm","items":[]}}}`
)

// TestDelegationTitleAcrossProgress: a delegation call's row shows its
// title from args from its start, before any progress; delegation progress
// adds the step suffix and rows beside it, as seed 003's header does
// (toolTitle(args) with the suffix), and nothing else moves it.
func TestDelegationTitleAcrossProgress(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		want   string // the call's row
	}{
		{"before progress", []string{asst, chainStart}, "  ▶ task  chain (3 steps)"},
		{"after delegation progress", []string{asst, chainStart, chainProgress}, "  ▶ task  chain (3 steps)  1 ok / 3"},
		{"output-only progress", []string{asst, chainStart, p("a")}, "  ▶ task  chain (3 steps)"},
		{"malformed payload", []string{asst, chainStart, badProgress}, "  ▶ task  chain (3 steps)"},
		{"done", []string{asst, chainStart, chainProgress, d("a", true)}, "  ✓ task  chain (3 steps)  1 ok / 3"},
		{"single agent", []string{asst, `{"kind":"tool_start","id":"a","name":"task","args":{"agent":"reviewer","task":"Review"}}`}, "  ▶ task  reviewer"},
		{"parallel", []string{asst, `{"kind":"tool_start","id":"a","name":"task","args":{"tasks":[{"agent":"x","task":"y"},{"agent":"z","task":"w"}]}}`}, "  ▶ task  parallel (2 tasks)"},
		{"not the shape", []string{asst, `{"kind":"tool_start","id":"a","name":"task","args":{"agent":"reviewer"}}`}, "  ▶ task"},
		{"tool_update with delegation args", []string{asst, `{"kind":"tool_start","id":"a","name":"task","args":{}}`,
			`{"kind":"tool_update","id":"a","args":{"tasks":[{"agent":"x","task":"y"}]}}`}, "  ▶ task  parallel (1 tasks)"},
		{"ordinary tool", []string{asst, s("a")}, "  ▶ bash  ls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := run(trace(t, tt.events...), false).Timeline()
			out := render.Render(tl, render.Options{Width: 80, SyntheticClock: true})
			row, _, _ := strings.Cut(out, "\n")
			if diff := cmp.Diff(tt.want, row); diff != "" {
				t.Errorf("row (-want +got):\n%s\nrender:\n%s", diff, out)
			}
		})
	}
}
