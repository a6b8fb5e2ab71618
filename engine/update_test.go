package engine_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/timeline"
)

func TestToolUpdate(t *testing.T) {
	evs := trace(t, asst,
		`{"kind":"tool_start","id":"a","name":"Terminal","args":{},"batch":"m"}`,
		`{"kind":"tool_update","id":"a","name":"bash","args":{"command":"npm test"}}`,
		`{"kind":"tool_start","id":"b","name":"read","args":{"path":"x"},"batch":"m"}`,
		`{"kind":"tool_update","id":"b"}`,
		`{"kind":"tool_update","id":"zz","name":"n"}`,
		`{"kind":"tool_done","id":"a","ok":true}`,
		`{"kind":"tool_update","id":"a","name":"late"}`,
	)
	tl := run(evs, false).Timeline()
	if len(tl.Items) != 1 || tl.Items[0].Kind != timeline.ItemToolGroup {
		t.Fatalf("an update must not end the batch: items %+v", tl.Items)
	}
	a, b := tl.Items[0].Tools[0], tl.Items[0].Tools[1]
	if a.Name != "bash" || a.Summary != "npm test" || a.Status != timeline.StatusOK || a.UpdateSeq != 0 {
		t.Errorf("updated call = %+v, want bash / npm test / ok, no progress counted", a)
	}
	if b.Name != "read" || b.Summary != "x" {
		t.Errorf("an update without name or args changed the call: %+v", b)
	}
	want := []timeline.Diagnostic{{Seq: 6, Code: timeline.DiagUnknownID, ID: "zz"}, {Seq: 8, Code: timeline.DiagLateProgress, ID: "a"}}
	if diff := cmp.Diff(want, tl.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestCompact(t *testing.T) {
	evs := trace(t, asst, `{"kind":"text","text":"before"}`, `{"kind":"compact","text":"Summary:\n1. x"}`, `{"kind":"text","text":"after"}`)
	tl := run(evs, false).Timeline()
	var kinds []timeline.ItemKind
	for _, it := range tl.Items {
		kinds = append(kinds, it.Kind)
	}
	if diff := cmp.Diff([]timeline.ItemKind{timeline.ItemAssistant, timeline.ItemCompaction, timeline.ItemAssistant}, kinds); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if tl.Items[1].Text != "Summary:\n1. x" {
		t.Errorf("compaction text = %q", tl.Items[1].Text)
	}
}

func TestFinishMarksUnfinished(t *testing.T) {
	evs := trace(t, asst, `{"kind":"tool_start","id":"a","name":"bash","args":{}}`, `{"kind":"tool_start","id":"b","name":"bash","args":{}}`,
		`{"kind":"cancel"}`, `{"kind":"tool_start","id":"c","name":"bash","args":{}}`)
	tl := run(evs, true).Timeline()
	got := map[string]bool{}
	for _, it := range tl.Items {
		it.EachTool(func(tool *timeline.Tool) bool { got[tool.ID] = tool.Unfinished; return true })
	}
	if diff := cmp.Diff(map[string]bool{"a": false, "b": false, "c": true}, got); diff != "" {
		t.Errorf("unfinished (-want +got):\n%s", diff)
	}
}
