package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/race"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
)

// decodeLines does what the page's script does with the line table.
func decodeLines(t *testing.T, lines []any) []string {
	t.Helper()
	out := make([]string, len(lines))
	for i, c := range lines {
		switch c := c.(type) {
		case string:
			out[i] = c
		case []any:
			b := utf16.Encode([]rune(out[c[0].(int)]))
			pre, suf := c[1].(int), c[2].(int)
			out[i] = string(utf16.Decode(b[:pre])) + c[3].(string) + string(utf16.Decode(b[len(b)-suf:]))
		default:
			t.Fatalf("line %d: unexpected %T", i, c)
		}
	}
	return out
}

// renders replays the model's steps into the text after each step.
func renders(t *testing.T, m *model) []string {
	lines := decodeLines(t, m.Lines)
	var state []int
	out := make([]string, len(m.Steps))
	for i, d := range m.Steps {
		n := d[0]
		for len(state) < n {
			state = append(state, -1)
		}
		state = state[:n]
		for j := 1; j < len(d); j += 2 {
			state[d[j]] = d[j+1]
		}
		parts := make([]string, len(state))
		for k, id := range state {
			if id < 0 {
				t.Fatalf("step %d: item %d never set", i, k)
			}
			var b strings.Builder
			for _, l := range m.Items[id] {
				b.WriteString(lines[l] + "\n")
			}
			parts[k] = b.String()
		}
		out[i] = strings.Join(parts, "\n")
		if i == len(m.Steps)-1 && m.Legend != "" { // as the page's script shows it
			if len(parts) > 0 {
				out[i] += "\n"
			}
			out[i] += m.Legend + "\n"
		}
	}
	return out
}

// want renders a trace after each event and after Finish.
func want(evs []event.Event) []string {
	e := engine.New(engine.Options{})
	var out []string
	for i := range evs {
		e.Apply(&evs[i])
		out = append(out, Clean(render.Render(e.Timeline(), render.Options{Width: 80})))
	}
	e.Finish()
	return append(out, Clean(render.Render(e.Timeline(), render.Options{Width: 80})))
}

// TestStepsEqualRender: the stored changes rebuild, at every step, exactly
// what the plain renderer prints, on simulated traces with every fault.
func TestStepsEqualRender(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: seed%2 == 0})
		m := newBuilder("t", sc.Events, 80, false).build()
		got, w := renders(t, m), want(sc.Events)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Fatalf("seed %d: renders differ (-want +got):\n%s", seed, diff)
		}
	}
}

// TestLanes: one lane per tool call with its final status, children after
// their parent, groups bracketing their batch, ticks on progress.
func TestLanes(t *testing.T) {
	evs := parse(t, `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":1,"kind":"tool_start","id":"a","name":"Read","args":{"path":"x"},"batch":"b1"}
{"seq":3,"t":2,"kind":"tool_start","id":"b","name":"Bash","args":{"command":"ls"},"batch":"b1"}
{"seq":4,"t":3,"kind":"tool_progress","id":"b","output":"x\u001b[31m"}
{"seq":5,"t":4,"kind":"tool_done","id":"b","ok":false,"error":"boom"}
{"seq":6,"t":5,"kind":"tool_start","id":"c","name":"Task","args":{}}
{"seq":7,"t":6,"kind":"tool_start","id":"c1","name":"Grep","args":{},"parent":"c"}
{"seq":8,"t":7,"kind":"tool_done","id":"a","ok":true,"output":"done"}
{"seq":9,"t":8,"kind":"tool_done","id":"zz","ok":true}
{"seq":10,"t":9,"kind":"cancel"}
`)
	m := newBuilder("t", evs, 80, false).build()
	type lt struct {
		ID, Status    string
		Parent, Depth int
		Start, End    int
		Ticks         []int
	}
	var got []lt
	for _, l := range m.Tools {
		got = append(got, lt{l.ID, l.Status, l.Parent, l.Depth, l.Start, l.End, l.Ticks})
	}
	wantLanes := []lt{
		{"a", "ok", -1, 0, 1, 7, nil},
		{"b", "failed", -1, 0, 2, 4, []int{3}},
		{"c", "interrupted", -1, 0, 5, 9, nil},
		{"c1", "interrupted", 2, 1, 6, 9, nil},
	}
	if diff := cmp.Diff(wantLanes, got); diff != "" {
		t.Errorf("lanes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]group{{Batch: "b1", From: 0, To: 1}}, m.Groups); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	if len(m.Diags) != 1 || m.Diags[0].Code != "unknown_id" || m.Diags[0].Ev != 8 || m.Diags[0].Tool != -1 {
		t.Errorf("diagnostics = %+v, want unknown_id at event index 8 on the trace row", m.Diags)
	}
	if m.Tools[1].Output != "x␛[31m" || m.Tools[1].Error != "boom" || m.Tools[0].Args != `{"path":"x"}` {
		t.Errorf("texts: output %q error %q args %q", m.Tools[1].Output, m.Tools[1].Error, m.Tools[0].Args)
	}
	if wantEv := []int{-1, 0, 1, 1, 1, 2, 3, 0, -1, -1}; !cmp.Equal(wantEv, m.EvTool) {
		t.Errorf("event lanes = %v, want %v", m.EvTool, wantEv)
	}
}

func parse(t *testing.T, s string) []event.Event {
	t.Helper()
	var evs []event.Event
	r := event.NewReader(strings.NewReader(s), event.ReaderOptions{Name: t.Name()})
	for {
		var ev event.Event
		if err := r.Next(&ev); err != nil {
			if err.Error() == "EOF" {
				return evs
			}
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

// TestClean: control characters become visible; text passes unchanged.
func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain ✓ text\n\tok", "plain ✓ text\n\tok"},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"bell\x07 del\x7f cr\r", "bell␇ del␡ cr␍"},
		{"c1\u009b2J", "c1⟨U+009B⟩2J"},
		{"rtl\u202eevil", "rtl⟨U+202E⟩evil"},
		{"bad\xffbyte", "bad⟨bad byte FF⟩byte"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPageEscapes: markup in tool names, args and output never reaches the
// page as markup, and the page loads nothing from outside.
func TestPageEscapes(t *testing.T) {
	evs := parse(t, `{"seq":1,"t":0,"kind":"tool_start","id":"<b>x</b>","name":"</script><script>alert(1)</script>","args":{"a":"<img src=x onerror=alert(1)>"}}
{"seq":2,"t":1,"kind":"tool_done","id":"<b>x</b>","ok":true,"output":"</script>\u001b]0;title\u0007"}
`)
	var buf bytes.Buffer
	if err := Write(&buf, evs, Options{Title: "<i>name</i>.jsonl"}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<img", "<b>x", "alert(1)</script>", "<i>name", "\x1b", "http://", "https://", "src=\"", "@import", "url("} {
		if bad == "http://" {
			// The SVG namespace is the one allowed URL; it loads nothing.
			page = strings.ReplaceAll(page, `"http://www.w3.org/2000/svg"`, "")
		}
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if n := strings.Count(page, "</script>"); n != 2 {
		t.Errorf("page has %d </script>, want 2 (the data and the code)", n)
	}
	m := dataOf(t, page)
	if m.Tools[0].Name != "</script><script>alert(1)</script>" || m.Tools[0].Output != "</script>␛]0;title␇" {
		t.Errorf("data lost the texts: %+v", m.Tools[0])
	}
}

// dataOf decodes a page's embedded data.
func dataOf(t *testing.T, page string) *model {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<script type="application/json" id="data">`)
	data, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatal("no data in the page")
	}
	var m model
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return &m
}

// TestFailurePage: the failing event, the oracle, the diff and both
// renders reach the page.
func TestFailurePage(t *testing.T) {
	evs := parse(t, `{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"Read","args":{}}
{"seq":2,"t":5,"kind":"tool_done","id":"a","ok":true}
{"seq":3,"t":9,"kind":"turn_end"}
`)
	stuck := func() harness.Engine { return stuckEngine{engine.New(engine.Options{})} }
	var buf bytes.Buffer
	v := harness.Violation{Seq: 2, Oracle: "model", Detail: "tool a: status running, want ok", Diff: "- a ok\n+ a running\n"}
	if err := Write(&buf, evs, Options{Title: "x", Failure: &Failure{Violation: v, Reproduce: "toolsim check x", Engine: stuck}}); err != nil {
		t.Fatal(err)
	}
	f := dataOf(t, buf.String()).Failure
	if f == nil || f.Ev != 1 || f.Oracle != "model" || f.Diff != v.Diff || f.Reproduce != "toolsim check x" {
		t.Fatalf("failure = %+v", f)
	}
	if !strings.Contains(f.Reference, "✓") || f.Engine == f.Reference {
		t.Errorf("renders not side by side:\nengine:\n%s\nreference:\n%s", f.Engine, f.Reference)
	}
}

// stuckEngine ignores results.
type stuckEngine struct{ *engine.Engine }

func (s stuckEngine) Apply(ev *event.Event) {
	if ev.Kind != event.KindToolDone {
		s.Engine.Apply(ev)
	}
}

// longTrace joins simulated scenarios into one trace of at least n events,
// with ids, batches and seqs made unique.
func longTrace(n int) []event.Event {
	var out []event.Event
	var t int64
	for seed := uint64(1); len(out) < n; seed++ {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Turns: 6, Tools: 6})
		base := t
		for _, ev := range sc.Events {
			pre := fmt.Sprintf("s%d-", seed)
			for _, s := range []*string{&ev.ID, &ev.Parent, &ev.Batch} {
				if *s != "" {
					*s = pre + *s
				}
			}
			ev.Seq = int64(len(out) + 1)
			ev.T = base + ev.T
			t = max(t, ev.T)
			out = append(out, ev)
		}
	}
	return out[:n]
}

// TestLargeTrace: a 100,000-event trace gives a page under 20 MB whose
// steps still rebuild the renders.
func TestLargeTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100,000-event page")
	}
	if race.Enabled {
		t.Skip("single-goroutine page building, ten times slower under -race: make test runs it after, without the detector")
	}
	evs := longTrace(100_000)
	var buf bytes.Buffer
	if err := Write(&buf, evs, Options{Title: "long"}); err != nil {
		t.Fatal(err)
	}
	t.Logf("page: %d bytes for %d events", buf.Len(), len(evs))
	if buf.Len() >= 20<<20 {
		t.Errorf("page is %d bytes, want < 20 MB", buf.Len())
	}
	m := dataOf(t, buf.String())
	if len(m.Steps) != len(evs)+1 || len(m.Tools) < 10_000 {
		t.Errorf("%d steps, %d lanes", len(m.Steps), len(m.Tools))
	}
}

func BenchmarkWrite100k(b *testing.B) {
	evs := longTrace(100_000)
	b.ResetTimer()
	for range b.N {
		var buf bytes.Buffer
		if err := Write(&buf, evs, Options{Title: "long"}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len())/1e6, "MB/page")
	}
}

// TestSyntheticClockShowsNoDurations: on a trace whose clock counts
// events (header meta clock synthetic), the page's renders show no
// durations, as replay does; on a real clock they do.
func TestSyntheticClockShowsNoDurations(t *testing.T) {
	evs := parse(t, `{"seq":1,"t":1,"kind":"tool_start","id":"a","name":"grep","args":{}}
{"seq":2,"t":2,"kind":"tool_done","id":"a","ok":true,"output":"x"}
`)
	page := func(h *event.Header) string {
		var buf bytes.Buffer
		if err := Write(&buf, evs, Options{Title: "t.jsonl", Header: h}); err != nil {
			t.Fatal(err)
		}
		lines, err := json.Marshal(dataOf(t, buf.String()).Lines)
		if err != nil {
			t.Fatal(err)
		}
		return string(lines)
	}
	if real := page(nil); !strings.Contains(real, "1ms") {
		t.Fatalf("on a real clock the renders lack the 1ms duration:\n%s", real)
	}
	synthetic := page(&event.Header{Meta: json.RawMessage(`{"clock":"synthetic"}`)})
	if strings.Contains(synthetic, "1ms") {
		t.Errorf("on a synthetic clock the renders show a duration:\n%s", synthetic)
	}
}
