package opencodeexport_test

import (
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/opencodeexport"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/importertest"
)

// export builds an export of session s with the messages given (each a
// JSON object), one message per line after the first.
func export(msgs ...string) string {
	return `{"info":{"id":"ses_1","slug":"tidy-pixel","projectID":"global","version":"1.18.33"},` + "\n" +
		`"messages":[` + "\n" + strings.Join(msgs, ",\n") + "\n]}\n"
}

// user is a user message created at ms.
func user(id string, ms int, text string) string {
	return `{"info":{"id":"` + id + `","role":"user","time":{"created":` + strconv.Itoa(ms) + `}},"parts":[{"type":"text","text":"` + text + `"}]}`
}

// asst is an assistant message answering parent, with its end (`"finish":"stop"`,
// an error member, or "") and its parts.
func asst(id, parent string, created, completed int, end string, parts ...string) string {
	done := ""
	if completed > 0 {
		done = `,"completed":` + strconv.Itoa(completed)
	}
	if end != "" {
		end = "," + end
	}
	return `{"info":{"id":"` + id + `","role":"assistant","parentID":"` + parent + `","time":{"created":` + strconv.Itoa(created) + done + `}` + end +
		`},"parts":[` + strings.Join(parts, ",") + `]}`
}

// tool is a tool part in state status, from start to end (ms), with rest
// (output, error, metadata members) added to its state.
func tool(call, name, status string, start, end int, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return `{"type":"tool","tool":"` + name + `","callID":"` + call + `","state":{"status":"` + status +
		`","input":{"call":"` + call + `"},"time":{"start":` + strconv.Itoa(start) + `,"end":` + strconv.Itoa(end) + `}` + rest + `}}`
}

// imp imports an export and returns its events as canonical JSON without
// seq, and its problems.
func imp(t *testing.T, in string) ([]string, []string) {
	t.Helper()
	res, err := opencodeexport.Importer{}.Import(strings.NewReader(in), importer.Options{Name: "t.json"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	importertest.Check(t, res)
	var evs, probs []string
	for i := range res.Events {
		evs = append(evs, seqRE.ReplaceAllString(string(event.AppendEvent(nil, &res.Events[i])), "{"))
	}
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	return evs, probs
}

var seqRE = regexp.MustCompile(`^\{"seq":\d+,`)

const (
	aborted = `"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}`
	stop    = `"finish":"stop"`
	steps   = `"finish":"tool-calls"`
)

func TestMapping(t *testing.T) {
	prompt := []string{`{"t":0,"kind":"turn_start","role":"user"}`, `{"t":0,"kind":"user","text":"go"}`, `{"t":0,"kind":"turn_end"}`}
	tests := []struct {
		name string
		msgs []string
		want []string
	}{
		{
			name: "a step's calls end in time order, then the final answer ends the turn",
			msgs: []string{user("u1", 1000, "go"),
				asst("a1", "u1", 1010, 1500, steps, tool("call_1", "toolsim_grep", "completed", 1020, 1400, `"output":"3 matches\n"`),
					tool("call_2", "toolsim_read", "error", 1030, 1200, `"error":"exit status 1"`)),
				asst("a2", "u1", 1600, 1700, stop, `{"type":"text","text":"Done.","time":{"start":1650}}`)},
			want: append(prompt, `{"t":10,"kind":"turn_start","role":"assistant"}`,
				`{"t":20,"kind":"tool_start","id":"call_1","name":"toolsim_grep","args":{"call":"call_1"},"batch":"a1"}`,
				`{"t":30,"kind":"tool_start","id":"call_2","name":"toolsim_read","args":{"call":"call_2"},"batch":"a1"}`,
				`{"t":200,"kind":"tool_done","id":"call_2","ok":false,"error":"exit status 1"}`,
				`{"t":400,"kind":"tool_done","id":"call_1","output":"3 matches\n","ok":true}`,
				`{"t":650,"kind":"text","text":"Done."}`,
				`{"t":700,"kind":"turn_end"}`),
		},
		{
			name: "the user's cancel interrupts the calls opencode marked interrupted",
			msgs: []string{user("u1", 1000, "go"),
				asst("a1", "u1", 1010, 1900, aborted, tool("call_1", "toolsim_grep", "completed", 1020, 1100, `"output":"ok"`),
					tool("call_2", "toolsim_grep", "error", 1030, 1880, `"error":"Tool execution aborted","metadata":{"interrupted":true}`))},
			want: append(prompt, `{"t":10,"kind":"turn_start","role":"assistant"}`,
				`{"t":20,"kind":"tool_start","id":"call_1","name":"toolsim_grep","args":{"call":"call_1"},"batch":"a1"}`,
				`{"t":30,"kind":"tool_start","id":"call_2","name":"toolsim_grep","args":{"call":"call_2"},"batch":"a1"}`,
				`{"t":100,"kind":"tool_done","id":"call_1","output":"ok","ok":true}`,
				`{"t":880,"kind":"cancel","reason":"Aborted"}`,
				`{"t":900,"kind":"turn_end"}`),
		},
		{
			name: "an interrupted call without the user's cancel (a cut stream) stays a failure",
			msgs: []string{user("u1", 1000, "go"),
				asst("a1", "u1", 1010, 1900, stop, tool("call_1", "toolsim_grep", "error", 1020, 1880, `"error":"Tool execution aborted","metadata":{"interrupted":true}`))},
			want: append(prompt, `{"t":10,"kind":"turn_start","role":"assistant"}`,
				`{"t":20,"kind":"tool_start","id":"call_1","name":"toolsim_grep","args":{"call":"call_1"},"batch":"a1"}`,
				`{"t":880,"kind":"tool_done","id":"call_1","ok":false,"error":"Tool execution aborted"}`,
				`{"t":900,"kind":"turn_end"}`),
		},
		{
			name: "a message in flight when opencode died leaves its call and turn open",
			msgs: []string{user("u1", 1000, "go"),
				asst("a1", "u1", 1010, 0, "", tool("call_1", "toolsim_grep", "running", 1020, 0, ""))},
			want: append(prompt, `{"t":10,"kind":"turn_start","role":"assistant"}`,
				`{"t":20,"kind":"tool_start","id":"call_1","name":"toolsim_grep","args":{"call":"call_1"},"batch":"a1"}`),
		},
		{
			name: "an open turn stays open when the user speaks again; a provider error is an error",
			msgs: []string{user("u1", 1000, "go"),
				asst("a1", "u1", 1010, 0, "", tool("call_1", "toolsim_grep", "running", 1020, 0, "")),
				user("u2", 5000, "again"),
				asst("a2", "u2", 5010, 5020, `"error":{"name":"APIError","data":{"message":"rate limited"}}`)},
			want: append(prompt, `{"t":10,"kind":"turn_start","role":"assistant"}`,
				`{"t":20,"kind":"tool_start","id":"call_1","name":"toolsim_grep","args":{"call":"call_1"},"batch":"a1"}`,
				`{"t":4000,"kind":"turn_start","role":"user"}`, `{"t":4000,"kind":"user","text":"again"}`, `{"t":4000,"kind":"turn_end"}`,
				`{"t":4010,"kind":"turn_start","role":"assistant"}`,
				`{"t":4020,"kind":"error","message":"rate limited"}`,
				`{"t":4020,"kind":"turn_end"}`),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, probs := imp(t, export(tc.msgs...))
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRealExport imports what opencode 1.18.33 exported of a session a
// toolsim-agent campaign drove (testdata/README.md): three calls that
// returned, then a step the user cancelled with one call returned and
// two running.
func TestRealExport(t *testing.T) {
	data, err := os.ReadFile("testdata/cancel.export.json")
	if err != nil {
		t.Fatal(err)
	}
	got, probs := imp(t, string(data))
	if len(probs) > 0 {
		t.Errorf("problems: %v", probs)
	}
	var kinds []string
	for _, line := range got {
		m := regexp.MustCompile(`"kind":"(\w+)"(?:,"role":"(\w+)")?(?:,"id":"(\w+)")?`).FindStringSubmatch(line)
		kinds = append(kinds, strings.TrimRight(strings.Join(m[1:], " "), " "))
	}
	want := []string{"turn_start user", "user", "turn_end", "turn_start assistant",
		"tool_start  call_1", "tool_start  call_2", "tool_start  call_3",
		"tool_done  call_3", "tool_done  call_2", "tool_done  call_1",
		"tool_start  call_4", "tool_start  call_6", "tool_start  call_7", "tool_done  call_4",
		"cancel", "turn_end"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"unknown role", export(`{"info":{"id":"m1","role":"system","time":{"created":1}},"parts":[]}`),
			[]string{`line 3: message "m1": role "system" is neither user nor assistant; skipped`}},
		{"tool part without a state", export(user("u1", 1, "go"), asst("a1", "u1", 2, 3, stop, `{"type":"tool","tool":"x","callID":"c1"}`)),
			[]string{`line 4: message "a1": tool part "c1" has no state; skipped`}},
		{"tool part without a state in a cancelled step", export(user("u1", 1, "go"), asst("a1", "u1", 2, 3, aborted, `{"type":"tool","tool":"x","callID":"c1"}`)),
			[]string{`line 4: message "a1": tool part "c1" has no state; skipped`}},
		{"unknown tool status", export(user("u1", 1, "go"), asst("a1", "u1", 2, 3, stop, tool("c1", "x", "exploded", 2, 3, ""))),
			[]string{`line 4: message "a1": tool part "c1": unknown status "exploded"; left open`}},
		{"a result without its end time", export(user("u1", 1, "go"), asst("a1", "u1", 2, 9, stop, tool("c1", "x", "completed", 5, 0, `"output":"ok"`))),
			[]string{`line 4: message "a1": tool part "c1" (completed) has no end time: its message's end used`}},
		{"a message without its creation time", export(user("u1", 7, "go"), asst("a1", "u1", 0, 9, stop)),
			[]string{`line 4: message "a1" has no creation time: placed after the one before it`}},
		{"cut short in a message", export(user("u1", 1, "go"), user("u2", 2, "again"))[:230],
			[]string{"line 4: message 2 is cut short: the export ends there, the messages before it are imported"}},
		{"cut short after the messages", strings.TrimSuffix(export(user("u1", 1, "go")), "]}\n"),
			[]string{"line 4: the messages array is not closed: the export ends there, the messages before it are imported"}},
		{"the object not closed", strings.TrimSuffix(export(user("u1", 1, "go")), "}\n"),
			[]string{"line 4: the export's object is not closed: the export ends there, the messages before it are imported"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := imp(t, tc.in)
			if diff := cmp.Diff(tc.want, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not an object", `[1,2]`, "line 1: not an opencode export: want a JSON object"},
		{"no messages", `{"info":{"slug":"a","version":"1"}}`, "line 1: not an opencode export: no messages array"},
		{"a broken message", export(user("u1", 1, "go"), `{"info":{"id":"m2","role":7}}`), `line 4: message 2: json: cannot unmarshal number into Go struct field`},
		{"data after the object", export(user("u1", 1, "go")) + `{"info":{}}`, "line 5: data after the export's object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := opencodeexport.Importer{}.Import(strings.NewReader(tc.in), importer.Options{Name: "t.json"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestStrict(t *testing.T) {
	in := export(`{"info":{"id":"m1","role":"system","time":{"created":1}},"parts":[]}`)
	_, err := opencodeexport.Importer{}.Import(strings.NewReader(in), importer.Options{Name: "x.json", Strict: true})
	if !errors.Is(err, importer.ErrStrict) || !strings.Contains(err.Error(), "x.json:line 3:") {
		t.Errorf("strict import: %v", err)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"an export", export(user("u1", 1, "go")), true},
		{"an export cut by the head", export(user("u1", 1, "go"))[:120], true},
		{"gemini-cli session", `{"sessionId":"s","messages":[]}`, false},
		{"info without slug", `{"info":{"version":"1"},"messages":[]}`, false},
		{"messages before info", `{"messages":[],"info":{"slug":"a","version":"1"}}`, false},
		{"canonical", `{"trace":"toolsim/v1"}` + "\n", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (opencodeexport.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDetectSharedTraces: Detect accepts none of the real samples of
// other formats.
func TestDetectSharedTraces(t *testing.T) {
	importertest.DetectSharedTraces(t, opencodeexport.Importer{}, "../../../shared/traces", "opencode-export")
}

func FuzzImport(f *testing.F) {
	f.Add(export(user("u1", 1, "go"), asst("a1", "u1", 2, 3, stop, tool("c1", "x", "completed", 2, 3, `"output":"ok"`))))
	f.Fuzz(func(t *testing.T, in string) { importertest.CheckImport(t, opencodeexport.Importer{}, in) })
}
