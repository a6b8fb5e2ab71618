package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// trace builds events from JSON objects without seq and t: event i gets
// seq i+1 and t 10*i unless the object sets "t".
func trace(t *testing.T, lines ...string) []event.Event {
	t.Helper()
	var b strings.Builder
	for i, l := range lines {
		tpart := fmt.Sprintf(`"t":%d,`, 10*i)
		if strings.Contains(l, `"t":`) {
			tpart = ""
		}
		fmt.Fprintf(&b, `{"seq":%d,%s%s`+"\n", i+1, tpart, strings.TrimPrefix(l, "{"))
	}
	_, evs, err := event.ReadAll(strings.NewReader(b.String()), event.ReaderOptions{Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func run(evs []event.Event, finish bool) *engine.Engine {
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	if finish {
		e.Finish()
	}
	return e
}

// statuses lists "id:status" for every tool, in timeline order.
func statuses(tl *timeline.Timeline) []string {
	var out []string
	for _, it := range tl.Items {
		it.EachTool(func(tool *timeline.Tool) bool {
			out = append(out, tool.ID+":"+string(tool.Status))
			return true
		})
	}
	return out
}

const (
	asst  = `{"kind":"turn_start","role":"assistant"}`
	end   = `{"kind":"turn_end"}`
	start = `{"kind":"tool_start","id":"%s","name":"bash","args":{"command":"ls"}}`
	done  = `{"kind":"tool_done","id":"%s","ok":%v}`
	prog  = `{"kind":"tool_progress","id":"%s","output":"x"}`
)

func s(id string) string          { return fmt.Sprintf(start, id) }
func d(id string, ok bool) string { return fmt.Sprintf(done, id, ok) }
func p(id string) string          { return fmt.Sprintf(prog, id) }
func perm(id, state string) string {
	return fmt.Sprintf(`{"kind":"permission","id":%q,"state":%q}`, id, state)
}

func TestDiagnostics(t *testing.T) {
	badDetails := `{"kind":"tool_progress","id":"a","details":{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":"1","agent":"x","task":"y","status":"bogus"}]}}}`
	tests := []struct {
		name     string
		lines    []string
		finish   bool
		want     []timeline.Diagnostic
		statuses []string
	}{
		{"unknown_id from progress", []string{asst, p("zz"), end},
			false, []timeline.Diagnostic{{Seq: 2, Code: "unknown_id", ID: "zz"}}, nil},
		{"unknown_id from a result reported at turn end", []string{asst, d("zz", true), end},
			false, []timeline.Diagnostic{{Seq: 2, Code: "unknown_id", ID: "zz"}}, nil},
		{"unknown_id from permission", []string{asst, perm("zz", "asked")},
			false, []timeline.Diagnostic{{Seq: 2, Code: "unknown_id", ID: "zz"}}, nil},
		{"duplicate_done keeps the first result", []string{asst, s("a"), d("a", true), d("a", false)},
			false, []timeline.Diagnostic{{Seq: 4, Code: "duplicate_done", ID: "a"}}, []string{"a:ok"}},
		{"late_progress after a result", []string{asst, s("a"), d("a", true), p("a")},
			false, []timeline.Diagnostic{{Seq: 4, Code: "late_progress", ID: "a"}}, []string{"a:ok"}},
		{"late_done after cancel", []string{asst, s("a"), `{"kind":"cancel"}`, d("a", true)},
			false, []timeline.Diagnostic{{Seq: 4, Code: "late_done", ID: "a"}}, []string{"a:interrupted"}},
		{"late_done for a denied tool", []string{asst, s("a"), perm("a", "asked"), perm("a", "denied"), d("a", false)},
			false, []timeline.Diagnostic{{Seq: 5, Code: "late_done", ID: "a"}}, []string{"a:denied"}},
		{"done_before_start is applied at the start", []string{asst, d("a", false), s("a")},
			false, []timeline.Diagnostic{{Seq: 2, Code: "done_before_start", ID: "a"}}, []string{"a:failed"}},
		{"duplicate_start pairs first in first out", []string{asst, s("a"), s("a"), d("a", false)},
			false, []timeline.Diagnostic{{Seq: 3, Code: "duplicate_start", ID: "a"}}, []string{"a:failed", "a:running"}},
		{"reused id after a result is not a duplicate", []string{asst, s("a"), d("a", true), s("a")},
			false, nil, []string{"a:ok", "a:running"}},
		{"missing_id on start, progress and done", []string{asst, s(""), p(""), d("", true)},
			false, []timeline.Diagnostic{{Seq: 2, Code: "missing_id"}, {Seq: 3, Code: "missing_id"}, {Seq: 4, Code: "missing_id"}}, nil},
		{"bad_details falls back", []string{asst, s("a"), badDetails},
			false, []timeline.Diagnostic{{Seq: 3, Code: "bad_details", ID: "a"}}, []string{"a:running"}},
		{"unfinished_at_turn_end", []string{asst, s("a"), s("b"), d("b", true), end},
			false, []timeline.Diagnostic{{Seq: 5, Code: "unfinished_at_turn_end", ID: "a"}}, []string{"a:interrupted", "b:ok"}},
		{"unfinished_at_end with Finish", []string{asst, s("a"), d("zz", true)},
			true, []timeline.Diagnostic{{Seq: 3, Code: "unknown_id", ID: "zz"}, {Seq: 3, Code: "unfinished_at_end", ID: "a"}}, []string{"a:interrupted"}},
		{"unknown_parent puts the tool at top level", []string{asst, `{"kind":"tool_start","id":"c","name":"read","parent":"nope"}`},
			false, []timeline.Diagnostic{{Seq: 2, Code: "unknown_parent", ID: "c"}}, []string{"c:running"}},
		{"late permission", []string{asst, s("a"), d("a", true), perm("a", "granted")},
			false, []timeline.Diagnostic{{Seq: 4, Code: "late_progress", ID: "a"}}, []string{"a:ok"}},
		{"clean trace has none", []string{asst, s("a"), p("a"), d("a", true), end},
			false, nil, []string{"a:ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := run(trace(t, tt.lines...), tt.finish).Timeline()
			if diff := cmp.Diff(tt.want, tl.Diagnostics); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.statuses, statuses(tl)); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
		})
	}
}

// shape describes the timeline as "kind[ids]" strings.
func shape(items []*timeline.Item) []string {
	var out []string
	for _, it := range items {
		var ids []string
		if it.Tool != nil {
			ids = append(ids, it.Tool.ID)
			for _, c := range shape(it.Tool.Children) {
				ids = append(ids, "child "+c)
			}
		}
		for _, tool := range it.Tools {
			ids = append(ids, tool.ID)
		}
		out = append(out, string(it.Kind)+strings.Join(append([]string{""}, ids...), " "))
	}
	return out
}

func TestGrouping(t *testing.T) {
	bs := func(id, batch string) string {
		return fmt.Sprintf(`{"kind":"tool_start","id":%q,"name":"grep","batch":%q}`, id, batch)
	}
	meta := `{"kind":"tool_start","id":"m","name":"todowrite","args":{"todos":[]}}`
	child := func(id string) string {
		return fmt.Sprintf(`{"kind":"tool_start","id":%q,"name":"read","parent":"task"}`, id)
	}
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"single tool", []string{asst, s("a")}, []string{"tool a"}},
		{"consecutive starts group", []string{asst, s("a"), s("b"), s("c")}, []string{"tool_group a b c"}},
		{"text between tools splits", []string{asst, s("a"), `{"kind":"text","text":"hm"}`, s("b")}, []string{"tool a", "assistant", "tool b"}},
		{"a result between starts ends the run", []string{asst, s("a"), d("a", true), s("b")}, []string{"tool a", "tool b"}},
		{"batch ids survive progress in between", []string{asst, bs("a", "m1"), p("a"), bs("b", "m1"), bs("c", "m2")}, []string{"tool_group a b", "tool c"}},
		{"meta tool never joins", []string{asst, s("a"), meta, s("b")}, []string{"tool_group a b", "meta_tool m"}},
		{"meta tool alone", []string{asst, meta}, []string{"meta_tool m"}},
		{"children under their parent", []string{asst, `{"kind":"tool_start","id":"task","name":"task"}`, child("c1"), child("c2")},
			[]string{"tool task child tool_group c1 c2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := run(trace(t, tt.lines...), false).Timeline()
			if diff := cmp.Diff(tt.want, shape(tl.Items)); diff != "" {
				t.Errorf("timeline shape (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCancelAndText(t *testing.T) {
	tl := run(trace(t, asst,
		`{"kind":"text","text":"I'll "}`, `{"kind":"text","text":"check"}`,
		s("a"), `{"kind":"text","text":"partial"}`, `{"kind":"cancel","reason":"esc"}`, end,
	), false).Timeline()
	want := []string{"assistant", "tool a", "assistant", "notice"}
	if diff := cmp.Diff(want, shape(tl.Items)); diff != "" {
		t.Fatalf("shape (-want +got):\n%s", diff)
	}
	if tl.Items[0].Text != "I'll check" || tl.Items[0].Interrupted {
		t.Errorf("first text %q interrupted=%v, want joined deltas, not interrupted", tl.Items[0].Text, tl.Items[0].Interrupted)
	}
	if !tl.Items[2].Interrupted {
		t.Error("text streaming at cancel is not marked interrupted")
	}
	if got := tl.Items[1].Tool; got.Status != timeline.StatusInterrupted || got.EndT != 50 || got.DurationMS != 20 {
		t.Errorf("tool after cancel: status %s end %d duration %d, want interrupted 50 20", got.Status, got.EndT, got.DurationMS)
	}
	if n := tl.Items[3]; n.Level != timeline.NoticeInterrupted || n.Text != "esc" {
		t.Errorf("notice %+v, want interrupted with reason esc", n)
	}
	if len(tl.Diagnostics) != 0 {
		t.Errorf("cancel then turn_end raised %v, want none", tl.Diagnostics)
	}
}

func TestPermissionFlow(t *testing.T) {
	e := engine.New(engine.Options{})
	evs := trace(t, asst, s("a"), perm("a", "asked"), perm("a", "granted"), d("a", true))
	want := []timeline.Status{"", "running", "pending", "running", "ok"}
	for i := range evs {
		e.Apply(&evs[i])
		if i == 0 {
			continue
		}
		if got := e.Timeline().Items[0].Tool.Status; got != want[i] {
			t.Errorf("after seq %d: status %s, want %s", evs[i].Seq, got, want[i])
		}
	}
}

func TestDurations(t *testing.T) {
	tl := run(trace(t, asst,
		`{"t":100,"kind":"tool_start","id":"a","name":"x"}`,
		`{"t":100,"kind":"tool_start","id":"b","name":"x"}`,
		`{"t":130,"kind":"tool_done","id":"a","ok":true,"duration_ms":7}`,
		`{"t":180,"kind":"tool_done","id":"b","ok":true}`,
	), false).Timeline()
	g := tl.Items[0].Tools
	if g[0].DurationMS != 7 || g[1].DurationMS != 80 || g[0].EndT != 130 || g[1].EndT != 180 {
		t.Errorf("durations a=%d(end %d) b=%d(end %d), want 7(130) 80(180)", g[0].DurationMS, g[0].EndT, g[1].DurationMS, g[1].EndT)
	}
}

func TestUpdateSeqAndDelegation(t *testing.T) {
	det := `{"kind":"tool_progress","id":"a","details":{"ui":{"kind":"agent_delegation","mode":"parallel","activeId":"2","items":[{"id":"1","agent":"scout","task":"look","status":"ok"},{"id":"2","agent":"fixer","task":"fix","status":"running","preview":"wip"}]}}}`
	tl := run(trace(t, asst, s("a"), det, det, p("a")), false).Timeline()
	tool := tl.Items[0].Tool
	if tool.UpdateSeq != 3 {
		t.Errorf("update_seq %d, want 3 (details-only updates count too)", tool.UpdateSeq)
	}
	want := &timeline.Delegation{Mode: "parallel", ActiveID: "2", Steps: []timeline.Step{
		{ID: "1", Agent: "scout", Task: "look", Status: "ok"},
		{ID: "2", Agent: "fixer", Task: "fix", Status: "running", Preview: "wip"},
	}}
	if diff := cmp.Diff(want, tool.Delegation); diff != "" {
		t.Errorf("delegation (-want +got):\n%s", diff)
	}
}

func TestVersionsMoveOnChange(t *testing.T) {
	e := engine.New(engine.Options{})
	evs := trace(t, asst, s("a"), s("b"), `{"kind":"text","text":"x"}`, d("a", true))
	for i := range evs[:4] {
		e.Apply(&evs[i])
	}
	group, text := e.Timeline().Items[0], e.Timeline().Items[1]
	gv, tv := group.Version, text.Version
	e.Apply(&evs[4])
	if group.Version <= gv {
		t.Error("a result did not move its group's version")
	}
	if text.Version != tv {
		t.Error("a result moved an unrelated item's version")
	}
}

// TestUnknownKindKeepsRun: an unknown kind between two starts only moves
// the clock (SPEC §1, docs/timeline.md): the starts still form one group.
func TestUnknownKindKeepsRun(t *testing.T) {
	e := engine.New(engine.Options{})
	for _, ev := range []event.Event{
		{Seq: 1, T: 0, Kind: event.KindToolStart, ID: "a", Name: "grep"},
		{Seq: 2, T: 1, Kind: "future_kind"},
		{Seq: 3, T: 2, Kind: event.KindToolStart, ID: "b", Name: "read"},
	} {
		e.Apply(&ev)
	}
	items := e.Timeline().Items
	if len(items) != 1 || items[0].Kind != timeline.ItemToolGroup || len(items[0].Tools) != 2 || e.Timeline().Now != 2 {
		t.Fatalf("want one group of 2 at now=2, got %d items (now %d)", len(items), e.Timeline().Now)
	}
}
