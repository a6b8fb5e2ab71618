package codextui_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/codextui"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/importer"
)

var seqT = regexp.MustCompile(`^\{"seq":\d+,"t":\d+,`)

// imp imports lines and returns the events without seq and t, the
// problems and the meta. Every trace must pass the engine oracles (the
// model's is skipped for traces with a tool_update, which harness/model.go
// does not know yet).
func imp(t *testing.T, lines ...string) ([]string, []string, string) {
	t.Helper()
	res, err := codextui.Importer{}.Import(strings.NewReader(strings.Join(lines, "\n")+"\n"), importer.Options{Name: "t"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var evs []string
	update := false
	for i := range res.Events {
		if err := event.Validate(&res.Events[i]); err != nil {
			t.Errorf("event %d invalid: %v", i+1, err)
		}
		update = update || res.Events[i].Kind == event.KindToolUpdate
		evs = append(evs, seqT.ReplaceAllString(string(event.AppendEvent(nil, &res.Events[i])), "{"))
	}
	for _, v := range harness.Check(func() harness.Engine { return engine.New(engine.Options{}) }, res.Events) {
		if v.Oracle != "model" || !update {
			t.Errorf("oracle: %s", v)
		}
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	return evs, probs, string(res.Header.Meta)
}

// ev is a codex_event line at second sec.
func ev(sec, msg string) string {
	return `{"dir":"to_tui","kind":"codex_event","payload":{"id":"1","msg":` + msg + `},"ts":"2025-09-02T11:20:` + sec + `.000Z"}`
}

// op is an op line at second sec.
func op(sec, payload string) string {
	return `{"dir":"from_tui","kind":"op","payload":` + payload + `,"ts":"2025-09-02T11:20:` + sec + `.000Z"}`
}

const (
	prompt  = `{"type":"user_input","items":[{"type":"text","text":"run the tests"}]}`
	userT   = `{"kind":"turn_start","role":"user"}`
	asst    = `{"kind":"turn_start","role":"assistant"}`
	end     = `{"kind":"turn_end"}`
	begin   = `{"type":"exec_command_begin","call_id":"c1","command":["bash","-lc","npm test"],"cwd":"/w"}`
	startC1 = `{"kind":"tool_start","id":"c1","name":"shell","args":{"command":["bash","-lc","npm test"],"cwd":"/w"}}`
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		head string
		want bool
	}{
		{"session_start, keys sorted", `{"cwd":"/w","dir":"meta","kind":"session_start","model":"m","ts":"2025-09-02T11:20:00.000Z"}` + "\n", true},
		{"codex_event first", ev("01", `{"type":"task_started"}`) + "\n", true},
		{"blank lines first", "\n\n" + op("01", prompt) + "\n", true},
		{"another dir", `{"dir":"sideways","kind":"x","ts":"t"}` + "\n", false},
		{"no ts", `{"dir":"meta","kind":"session_start"}` + "\n", false},
		{"codex rollout", `{"timestamp":"2025-09-02T11:20:00.000Z","type":"session_meta","payload":{}}` + "\n", false},
		{"canonical", `{"trace":"toolsim/v1"}` + "\n", false},
		{"head cut in the first line", `{"cwd":"/w","dir":"meta","kind":"session_start","model":"` + strings.Repeat("m", 10), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (codextui.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMapping(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{
			name:  "a prompt, then its echo as user_message, is one user turn",
			lines: []string{op("01", prompt), ev("01", `{"type":"user_message","message":"run the tests"}`)},
			want:  []string{userT, `{"kind":"user","text":"run the tests"}`, end},
		},
		{
			name: "deltas make the text; the whole message that follows is not repeated",
			lines: []string{ev("01", `{"type":"task_started"}`), ev("02", `{"type":"agent_message_delta","delta":"Do"}`),
				ev("02", `{"type":"agent_message_delta","delta":"ne."}`), ev("02", `{"type":"agent_message","message":"Done."}`),
				ev("03", `{"type":"task_complete","last_agent_message":"Done."}`)},
			want: []string{asst, `{"kind":"text","text":"Do"}`, `{"kind":"text","text":"ne."}`, end},
		},
		{
			name: "a command: begin, base64 output delta, end with exit code and duration",
			lines: []string{ev("01", begin), ev("02", `{"type":"exec_command_output_delta","call_id":"c1","stream":"stdout","chunk":"b2sK"}`),
				ev("03", `{"type":"exec_command_end","call_id":"c1","stdout":"","stderr":"boom\n","aggregated_output":"ok\nboom\n","exit_code":2,"duration":{"secs":1,"nanos":250000000}}`)},
			want: []string{asst, startC1, `{"kind":"tool_progress","id":"c1","output":"ok\n"}`,
				`{"kind":"tool_done","id":"c1","output":"ok\nboom\n","ok":false,"error":"exit code 2: boom","duration_ms":1250}`},
		},
		{
			name: "an approval request starts the call; a denial ends it; the begin never comes",
			lines: []string{ev("01", `{"type":"exec_approval_request","call_id":"c1","command":["bash","-lc","npm test"],"cwd":"/w"}`),
				op("02", `{"type":"exec_approval","id":"c1","decision":"denied"}`)},
			want: []string{asst, startC1, `{"kind":"permission","id":"c1","state":"asked"}`,
				`{"kind":"permission","id":"c1","state":"denied","decision":"denied"}`},
		},
		{
			name: "an approved call is not started twice by its begin",
			lines: []string{ev("01", `{"type":"exec_approval_request","call_id":"c1","command":["bash","-lc","npm test"],"cwd":"/w"}`),
				op("02", `{"type":"exec_approval","id":"c1","decision":"approved_for_session"}`), ev("02", begin)},
			want: []string{asst, startC1, `{"kind":"permission","id":"c1","state":"asked"}`,
				`{"kind":"permission","id":"c1","state":"granted","decision":"approved_for_session"}`},
		},
		{
			name: "a patch: its files as args; its duration runs from its begin",
			lines: []string{ev("01", `{"type":"patch_apply_begin","call_id":"p1","auto_approved":true,"changes":{"b.go":{},"a.go":{}}}`),
				ev("03", `{"type":"patch_apply_end","call_id":"p1","stdout":"","stderr":"hunk failed","success":false}`)},
			want: []string{asst, `{"kind":"tool_start","id":"p1","name":"apply_patch","args":{"files":["a.go","b.go"],"path":"a.go"}}`,
				`{"kind":"tool_done","id":"p1","ok":false,"error":"hunk failed","duration_ms":2000}`},
		},
		{
			name: "an MCP call: server.tool, Err result fails",
			lines: []string{ev("01", `{"type":"mcp_tool_call_begin","call_id":"m1","invocation":{"server":"docs","tool":"search","arguments":{"query":"retry"}}}`),
				ev("02", `{"type":"mcp_tool_call_end","call_id":"m1","invocation":{"server":"docs","tool":"search"},"duration":"350ms","result":{"Err":"timeout"}}`)},
			want: []string{asst, `{"kind":"tool_start","id":"m1","name":"docs.search","args":{"query":"retry"}}`,
				`{"kind":"tool_done","id":"m1","ok":false,"error":"timeout","duration_ms":350}`},
		},
		{
			name:  "a web search: its query arrives at the end, as a tool_update",
			lines: []string{ev("01", `{"type":"web_search_begin","call_id":"w1"}`), ev("02", `{"type":"web_search_end","call_id":"w1","query":"go 1.25 release"}`)},
			want: []string{asst, `{"kind":"tool_start","id":"w1","name":"web_search","args":{}}`,
				`{"kind":"tool_update","id":"w1","args":{"query":"go 1.25 release"}}`, `{"kind":"tool_done","id":"w1","ok":true}`},
		},
		{
			name:  "turn_aborted: a cancel, then the turn ends",
			lines: []string{ev("01", `{"type":"task_started"}`), ev("01", begin), ev("02", `{"type":"turn_aborted","reason":"interrupted"}`)},
			want:  []string{asst, startC1, `{"kind":"cancel","reason":"interrupted"}`, end},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, probs, _ := imp(t, tc.lines...)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if len(probs) > 0 {
				t.Errorf("problems: %q", probs)
			}
		})
	}
}

func TestMetaAndProblems(t *testing.T) {
	_, probs, meta := imp(t,
		`{"cwd":"/w","dir":"meta","kind":"session_start","model":"gpt-5-codex","model_provider_id":"openai","ts":"2025-09-02T11:20:00.000Z"}`,
		`{"dir":"to_tui","kind":"app_event","ts":"2025-09-02T11:20:00.000Z","variant":"RequestRedraw"}`,
		`not json`,
		`{"dir":"to_tui","ts":"2025-09-02T11:20:00.000Z"}`,
		`{"dir":"to_tui","kind":"codex_event","payload":{"msg":{}},"ts":"2025-09-02T11:20:00.000Z"}`,
		`{"dir":"from_tui","kind":"op","payload":{"type":"interrupt"},"ts":"bad"}`,
	)
	want := []string{"line 3: not a JSON object: skipped", `line 4: a record without "dir" or "kind": skipped`,
		"line 5: codex_event without a readable payload.msg.type: skipped", `line 6: bad ts "bad": synthetic time used`}
	if diff := cmp.Diff(want, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if wantMeta := `{"cwd":"/w","format":"codex-tui-session-log","ignored":{"app_event":1,"op interrupt":1},"model":"gpt-5-codex","model_provider":"openai"}`; meta != wantMeta {
		t.Errorf("meta = %s\nwant   %s", meta, wantMeta)
	}
}
