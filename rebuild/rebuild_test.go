package rebuild_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/timeline"
)

const header = `{"log":"toolsim-log/1","t0":"2025-01-01T00:00:00.000Z"}`

// rec builds a record line: seq n, id rN, parent rN-1, at t ms.
func rec(n, t int, body string) string {
	parent := ""
	if n > 1 {
		parent = fmt.Sprintf(`"parent":"r%d",`, n-1)
	}
	return fmt.Sprintf(`{"v":1,"id":"r%d","seq":%d,%s"ts":"2025-01-01T00:00:%02d.%03dZ",%s}`, n, n, parent, t/1000, t%1000, body)
}

type problem struct {
	Line int
	Code string
}

func problems(res *rebuild.Result) []problem {
	var out []problem
	for _, p := range res.Problems {
		out = append(out, problem{p.Line, p.Code})
	}
	return out
}

func statuses(tl *timeline.Timeline) []string {
	var out []string
	for _, it := range tl.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			out = append(out, t.ID+":"+string(t.Status))
			return true
		})
	}
	return out
}

func TestBadInput(t *testing.T) {
	start := rec(1, 0, `"type":"turn_start","role":"assistant"`)
	call := rec(2, 10, `"type":"tool_call","call_id":"a","name":"bash","args":{"command":"ls"}`)
	done := rec(3, 40, `"type":"tool_result","call_id":"a","ok":true`)
	tests := []struct {
		name     string
		lines    []string
		noNL     bool // the log does not end in a newline
		want     []problem
		statuses []string
	}{
		{"clean", []string{header, start, call, done}, false, nil, []string{"a:ok"}},
		{"garbage line", []string{header, start, "not json at all", call, done}, false, []problem{{3, "bad_record"}}, []string{"a:ok"}},
		{"torn tail", []string{header, start, call, done[:25]}, true, []problem{{4, "torn_tail"}}, []string{"a:interrupted"}},
		{"mixed record versions", []string{header, start, strings.Replace(call, `"v":1`, `"v":2`, 1), done}, false, []problem{{3, "unsupported_version"}, {4, "seq_gap"}}, nil},
		{"unknown member kept out, record used", []string{header, start, strings.Replace(call, `"name":`, `"colour":"red","name":`, 1), done}, false, []problem{{3, "unknown_field"}}, []string{"a:ok"}},
		{"unknown record type", []string{header, start, rec(2, 5, `"type":"telemetry"`), rec(3, 10, `"type":"tool_call","call_id":"a","name":"x"`)}, false, []problem{{3, "unknown_record"}}, []string{"a:interrupted"}},
		{"a span of 74 years", []string{header, start, call, strings.Replace(done, "2025-", "2099-", 1)}, false, nil, []string{"a:ok"}},
		{"a span past the year 9999", []string{header, start, call, strings.Replace(done, "2025-", "31690763-", 1)}, false, nil, []string{"a:ok"}},
		{"timestamp going back", []string{header, start, strings.Replace(call, "2025-", "2024-", 1), done}, false, []problem{{3, "bad_time"}}, []string{"a:ok"}},
		{"seq 0", []string{header, strings.Replace(start, `"seq":1`, `"seq":0`, 1)}, false, []problem{{2, "bad_record"}}, nil},
		{"negative seq", []string{header, start, strings.Replace(call, `"seq":2`, `"seq":-2`, 1), done}, false, []problem{{3, "bad_record"}, {4, "seq_gap"}}, nil},
		{"empty log", nil, true, []problem{{0, "empty_log"}}, nil},
		{"header only", []string{header}, false, nil, nil},
		{"missing header", []string{start, call, done}, false, []problem{{1, "missing_header"}}, []string{"a:ok"}},
		{"duplicate record", []string{header, start, call, call, done}, false, []problem{{4, "duplicate_record"}}, []string{"a:ok"}},
		{"conflicting record", []string{header, start, rec(3, 40, `"type":"turn_end"`), strings.Replace(done, `"r3"`, `"r9"`, 1), call}, false, []problem{{4, "conflicting_record"}}, []string{"a:interrupted"}},
		{"result for an unknown id", []string{header, start, rec(2, 10, `"type":"tool_result","call_id":"zz","ok":true`)}, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := strings.Join(tt.lines, "\n")
			if !tt.noNL {
				log += "\n"
			}
			res, err := rebuild.Rebuild(strings.NewReader(log), rebuild.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, problems(res)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nall: %v", diff, res.Problems)
			}
			if diff := cmp.Diff(tt.statuses, statuses(res.Timeline())); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnknownIDBecomesDiagnostic: records for unknown ids reach the engine,
// which reports them; nothing is dropped.
func TestUnknownIDBecomesDiagnostic(t *testing.T) {
	log := header + "\n" + rec(1, 0, `"type":"turn_start","role":"assistant"`) + "\n" + rec(2, 10, `"type":"tool_result","call_id":"zz","ok":true`) + "\n"
	res, _ := rebuild.Rebuild(strings.NewReader(log), rebuild.Options{})
	want := []timeline.Diagnostic{{Seq: 2, Code: "unknown_id", ID: "zz"}}
	if diff := cmp.Diff(want, res.Timeline().Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestOrderModes checks the three orders: seq, parent links, time.
func TestOrderModes(t *testing.T) {
	noSeq := func(l string) string {
		i := strings.Index(l, `"seq":`)
		j := strings.Index(l[i:], ",")
		return l[:i] + l[i+j+1:]
	}
	noParent := func(l string) string {
		i := strings.Index(l, `"parent":`)
		if i < 0 {
			return l
		}
		j := strings.Index(l[i:], ",")
		return l[:i] + l[i+j+1:]
	}
	// The text record was written late (after the tool call) but belongs
	// before it: each order must put it back.
	text := rec(2, 5, `"type":"assistant_message","text":"checking"`)
	call := rec(3, 10, `"type":"tool_call","call_id":"a","name":"bash"`)
	start := rec(1, 0, `"type":"turn_start","role":"assistant"`)
	for _, tt := range []struct {
		name  string
		lines []string
		order string
	}{
		{"seq", []string{start, call, text}, "seq"},
		{"parent", []string{noSeq(start), noSeq(call), noSeq(text)}, "parent"},
		{"time", []string{noParent(noSeq(start)), noParent(noSeq(call)), noParent(noSeq(text))}, "time"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := rebuild.Rebuild(strings.NewReader(header+"\n"+strings.Join(tt.lines, "\n")+"\n"), rebuild.Options{})
			if res.Order != tt.order {
				t.Errorf("order %s, want %s", res.Order, tt.order)
			}
			items := res.Timeline().Items
			if len(items) != 2 || items[0].Kind != timeline.ItemAssistant || items[1].Kind != timeline.ItemTool {
				t.Errorf("text is not back before the tool: %v", items)
			}
		})
	}
}
