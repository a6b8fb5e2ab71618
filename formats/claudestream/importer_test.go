package claudestream_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/claudestream"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/importer"
)

// --- building inline streams ---

type obj = map[string]any

// msg is one stream-json line: kv are member pairs.
func msg(kv ...any) string {
	m := obj{"session_id": "s1"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

const initLine = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Task","Bash","Glob"],"mcp_servers":[],"model":"claude-sonnet-4-5","permissionMode":"default","claude_code_version":"2.0.76","uuid":"i1"}`

// assistant is an assistant line with one content block; parent is the
// parent_tool_use_id ("" for null).
func assistant(uuid, msgID, parent string, block obj) string {
	var p any
	if parent != "" {
		p = parent
	}
	return msg("type", "assistant", "uuid", uuid, "parent_tool_use_id", p,
		"message", obj{"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": []obj{block}, "stop_reason": nil})
}

func user(uuid, parent string, content any, kv ...any) string {
	var p any
	if parent != "" {
		p = parent
	}
	return msg(append([]any{"type", "user", "uuid", uuid, "parent_tool_use_id", p, "message", obj{"role": "user", "content": content}}, kv...)...)
}

func text(s string) obj { return obj{"type": "text", "text": s} }
func use(id, name string, input any) obj {
	return obj{"type": "tool_use", "id": id, "name": name, "input": input}
}
func result(id string, content any, isErr bool) []obj {
	return []obj{{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}}
}

func end(subtype string, kv ...any) string {
	return msg(append([]any{"type", "result", "subtype", subtype, "is_error", subtype != "success", "num_turns", 2, "duration_ms", 1200, "result", "", "uuid", "e1"}, kv...)...)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// --- reading the result ---

func brief(ev event.Event) string {
	switch ev.Kind {
	case event.KindTurnStart:
		return "turn_start " + ev.Role
	case event.KindUser, event.KindText, event.KindThinking:
		return fmt.Sprintf("%s %q", ev.Kind, ev.Text)
	case event.KindToolStart:
		s := fmt.Sprintf("tool_start %s %s", ev.ID, ev.Name)
		if ev.Batch != "" {
			s += " batch=" + ev.Batch
		}
		if ev.Parent != "" {
			s += " parent=" + ev.Parent
		}
		return s
	case event.KindToolProgress:
		return fmt.Sprintf("tool_progress %s %q", ev.ID, ev.Output)
	case event.KindToolDone:
		s := fmt.Sprintf("tool_done %s ok=%v %q", ev.ID, ev.OK, ev.Output)
		if ev.Error != "" {
			s += fmt.Sprintf(" error=%q", ev.Error)
		}
		if ev.DurationMS != nil {
			s += fmt.Sprintf(" duration=%d", *ev.DurationMS)
		}
		return s
	case event.KindPermission:
		return fmt.Sprintf("permission %s %s", ev.ID, ev.State)
	case event.KindCancel:
		return fmt.Sprintf("cancel %q", ev.Reason)
	case event.KindError:
		return fmt.Sprintf("error %q", ev.Message)
	}
	return string(ev.Kind)
}

func run(t *testing.T, src string) *importer.Result {
	t.Helper()
	res, err := claudestream.Importer{}.Import(strings.NewReader(src), importer.Options{Name: "test.jsonl"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return res
}

func briefs(res *importer.Result) []string {
	var out []string
	for _, ev := range res.Events {
		out = append(out, brief(ev))
	}
	return out
}

func problems(res *importer.Result) []string {
	var out []string
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

func checkOracles(t *testing.T, evs []event.Event) {
	t.Helper()
	compact := false
	for i := range evs {
		compact = compact || evs[i].Kind == event.KindCompact
	}
	for _, v := range harness.Check(func() harness.Engine { return engine.New(engine.Options{}) }, evs) {
		if v.Oracle == "model" && compact {
			continue // harness/model.go (the lead's) does not know compact yet
		}
		t.Errorf("oracle: %s", v)
	}
}

func metaOf(t *testing.T, res *importer.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(res.Header.Meta, &m); err != nil {
		t.Fatalf("meta %s: %v", res.Header.Meta, err)
	}
	return m
}

func TestMapping(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		want  []string
		check func(t *testing.T, res *importer.Result)
	}{
		{
			name: "init goes to the header; a run without a prompt starts with the assistant turn",
			src: lines(
				initLine,
				assistant("a1", "m1", "", text("Hello.")),
				end("success"),
			),
			want: []string{"turn_start assistant", `text "Hello."`, "turn_end"},
			check: func(t *testing.T, res *importer.Result) {
				m := metaOf(t, res)
				if m["model"] != "claude-sonnet-4-5" || m["session_id"] != "s1" || fmt.Sprint(m["tools"]) != "[Task Bash Glob]" {
					t.Errorf("meta = %s", res.Header.Meta)
				}
				if fmt.Sprint(m["results"]) != "[map[duration_ms:1200 num_turns:2 subtype:success]]" {
					t.Errorf("results meta = %v", m["results"])
				}
				if res.Events[0].T != 1 || res.Events[2].T != 2 {
					t.Errorf("synthetic clock: t = %d, %d; want 1, 2", res.Events[0].T, res.Events[2].T)
				}
			},
		},
		{
			name: "a user prompt is a user turn",
			src: lines(
				user("u1", "", "What is 2+2?"),
				assistant("a1", "m1", "", text("4")),
				end("success"),
			),
			want: []string{"turn_start user", `user "What is 2+2?"`, "turn_end", "turn_start assistant", `text "4"`, "turn_end"},
		},
		{
			name: "thinking block",
			src: lines(
				assistant("a1", "m1", "", obj{"type": "thinking", "thinking": "Let me think.", "signature": "s"}),
				end("success"),
			),
			want: []string{"turn_start assistant", `thinking "Let me think."`, "turn_end"},
		},
		{
			name: "parallel calls on separate lines share message.id: one batch; results pair by id",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "ls"})),
				assistant("a2", "m1", "", use("t2", "Bash", obj{"command": "pwd"})),
				user("r2", "", result("t2", "/w", false)),
				user("r1", "", result("t1", "a b", false), "tool_use_result", obj{"stdout": "a b", "stderr": "", "interrupted": false, "isImage": false}),
				end("success"),
			),
			want: []string{
				"turn_start assistant", "tool_start t1 Bash batch=m1", "tool_start t2 Bash batch=m1",
				`tool_done t2 ok=true "/w"`, `tool_done t1 ok=true "a b"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if string(res.Events[1].Args) != `{"command":"ls"}` {
					t.Errorf("args = %s", res.Events[1].Args)
				}
			},
		},
		{
			name: "error result, with text parts joined and an image placeholder",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Read", obj{"file_path": "x.png"})),
				user("r1", "", result("t1", []obj{text("cannot read"), {"type": "image", "source": obj{}}}, true)),
				end("success"),
			),
			want: []string{
				"turn_start assistant", "tool_start t1 Read batch=m1",
				`tool_done t1 ok=false "cannot read\n[image]" error="cannot read\n[image]"`, "turn_end",
			},
		},
		{
			name: "sub-agent lines carry parent_tool_use_id: children under the Task, its text as Task progress",
			src: lines(
				assistant("a1", "m1", "", use("task1", "Task", obj{"prompt": "Find config"})),
				user("s1", "task1", []obj{text("Find config")}),
				assistant("s2", "sm1", "task1", use("c1", "Grep", obj{"pattern": "config"})),
				user("s3", "task1", result("c1", "src/config.go", false)),
				assistant("s4", "sm2", "task1", text("In src/config.go")),
				user("r1", "", result("task1", "In src/config.go", false)),
				end("success"),
			),
			want: []string{
				"turn_start assistant", "tool_start task1 Task batch=m1",
				"tool_start c1 Grep batch=sm1 parent=task1", `tool_done c1 ok=true "src/config.go"`,
				`tool_progress task1 "In src/config.go\n"`, `tool_done task1 ok=true "In src/config.go"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if !strings.Contains(string(res.Header.Meta), `"sub-agent prompt":1`) {
					t.Errorf("meta = %s, want the sub-agent prompt counted", res.Header.Meta)
				}
			},
		},
		{
			name: "permission denial from the result line, for a call still live",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "rm -rf /"})),
				end("error_during_execution", "permission_denials", []obj{
					{"tool_name": "Bash", "tool_use_id": "t1", "tool_input": obj{"command": "rm -rf /"}},
					{"tool_name": "Write", "tool_use_id": "t9", "tool_input": obj{}},
				}),
			),
			want: []string{
				"turn_start assistant", "tool_start t1 Bash batch=m1", "permission t1 denied",
				`error "run ended: error_during_execution"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if !strings.Contains(string(res.Header.Meta), `"permission_denials":[{"tool_name":"Write","tool_use_id":"t9","tool_input":{}}]`) {
					t.Errorf("meta = %s, want the unmapped denial kept", res.Header.Meta)
				}
			},
		},
		{
			name: "a rejected tool result is permission denied",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Write", obj{"file_path": "a"})),
				user("r1", "", result("t1", "The user doesn't want to proceed with this tool use. The tool use was rejected.", true)),
				end("success"),
			),
			want: []string{"turn_start assistant", "tool_start t1 Write batch=m1", "permission t1 denied", "turn_end"},
		},
		{
			name: "a result subtype other than success is an error notice; the turn still ends",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "make"})),
				end("error_max_turns"),
			),
			want: []string{"turn_start assistant", "tool_start t1 Bash batch=m1", `error "run ended: error_max_turns"`, "turn_end"},
		},
		{
			name: "interrupt marker is a cancel",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "sleep 100"})),
				user("u1", "", []obj{text("[Request interrupted by user for tool use]")}),
			),
			want: []string{"turn_start assistant", "tool_start t1 Bash batch=m1", `cancel "[Request interrupted by user for tool use]"`, "turn_end"},
		},
		{
			name: "tool_use_result.interrupted cancels, keeping the partial output",
			src: lines(
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "sleep 100"})),
				user("r1", "", result("t1", "started", false), "tool_use_result", obj{"stdout": "started", "interrupted": true}),
				end("success"),
			),
			want: []string{
				"turn_start assistant", "tool_start t1 Bash batch=m1", `tool_progress t1 "started"`,
				`cancel "tool interrupted"`, "turn_end",
			},
		},
		{
			name: "a stream cut off mid-turn leaves the turn open, its tools live",
			src: lines(
				initLine,
				assistant("a1", "m1", "", use("t1", "Bash", obj{"command": "make"})),
				assistant("a2", "m1", "", use("t2", "Bash", obj{"command": "make test"})),
				user("r1", "", result("t1", "ok", false)),
			),
			want: []string{"turn_start assistant", "tool_start t1 Bash batch=m1", "tool_start t2 Bash batch=m1", `tool_done t1 ok=true "ok"`},
		},
		{
			name: "stream_event and other system lines are ignored and counted; compact_boundary is a compact",
			src: lines(
				msg("type", "stream_event", "event", obj{"type": "content_block_delta"}, "parent_tool_use_id", nil),
				msg("type", "system", "subtype", "compact_boundary"),
				msg("type", "system", "subtype", "hook_response"),
				assistant("a1", "m1", "", text("ok")),
				end("success"),
			),
			want: []string{"compact", "turn_start assistant", `text "ok"`, "turn_end"},
			check: func(t *testing.T, res *importer.Result) {
				if !strings.Contains(string(res.Header.Meta), `"ignored":{"stream_event":1,"system:hook_response":1}`) {
					t.Errorf("meta = %s", res.Header.Meta)
				}
			},
		},
		{
			name: "two runs in one stream",
			src: lines(
				user("u1", "", "one"), assistant("a1", "m1", "", text("1")), end("success"),
				user("u2", "", "two"), assistant("a2", "m2", "", text("2")), end("success"),
			),
			want: []string{
				"turn_start user", `user "one"`, "turn_end", "turn_start assistant", `text "1"`, "turn_end",
				"turn_start user", `user "two"`, "turn_end", "turn_start assistant", `text "2"`, "turn_end",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.src)
			if p := problems(res); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
			if diff := cmp.Diff(tc.want, briefs(res)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if tc.check != nil {
				tc.check(t, res)
			}
			checkOracles(t, res.Events)
			for i := range res.Events {
				if err := event.Validate(&res.Events[i]); err != nil {
					t.Errorf("event %d: %v", i+1, err)
				}
			}
		})
	}
}

func TestProblems(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		want     []string
		wantEvts int
	}{
		{
			name: "not JSON, unknown type, torn last line",
			src: lines(
				initLine,
				`not json at all`,
				msg("type", "telemetry", "x", 1),
				assistant("a1", "m1", "", text("ok")),
				`{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"cut`,
			),
			want: []string{
				"line 2: malformed JSON: invalid character 'o' in literal null",
				`line 3: unknown message type "telemetry": skipped`,
				"line 5: torn last line: the message is cut off",
			},
			wantEvts: 2,
		},
		{
			name:     "malformed line in the middle is not called torn",
			src:      lines(`{"type":"user",`, assistant("a1", "m1", "", text("ok"))),
			want:     []string{"line 1: malformed JSON: unexpected end of JSON input: skipped"},
			wantEvts: 2,
		},
		{
			name:     "a member of the wrong type is reported, the rest mapped",
			src:      lines(msg("type", "assistant", "uuid", 5, "message", obj{"id": "m1", "content": []obj{text("ok")}})),
			want:     []string{`line 1: member "uuid": want string, got a JSON number`},
			wantEvts: 2,
		},
		{
			name:     "line without a type",
			src:      lines(msg("x", 1), assistant("a1", "m1", "", text("ok"))),
			want:     []string{`line 1: line without a "type"`},
			wantEvts: 2,
		},
		{
			name:     "unknown content block",
			src:      lines(assistant("a1", "m1", "", obj{"type": "hologram"})),
			want:     []string{`line 1: assistant content block of unknown type "hologram": skipped`},
			wantEvts: 0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.src)
			got := problems(res)
			if len(got) != len(tc.want) {
				t.Fatalf("problems = %q, want %d", got, len(tc.want))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("problem %d = %q, want prefix %q", i, got[i], tc.want[i])
				}
			}
			if len(res.Events) != tc.wantEvts {
				t.Errorf("%d events, want %d: %q", len(res.Events), tc.wantEvts, briefs(res))
			}
			checkOracles(t, res.Events)
			_, err := claudestream.Importer{}.Import(strings.NewReader(tc.src), importer.Options{Name: "x", Strict: true})
			if !errors.Is(err, importer.ErrStrict) {
				t.Errorf("strict import: err = %v, want ErrStrict", err)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	transcript := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s","version":"2.0.26","type":"user","message":{"role":"user","content":"hi"},"uuid":"u","timestamp":"2025-10-24T20:54:39.926Z"}` + "\n"
	cases := []struct {
		name string
		head string
		want bool
	}{
		{"init first", lines(initLine, assistant("a1", "m1", "", text("x"))), true},
		{"assistant only", lines(assistant("a1", "m1", "", text("x"))), true},
		{"assistant without parent_tool_use_id", lines(msg("type", "assistant", "message", obj{})), false},
		{"transcript", transcript, false},
		{"init, then a line cut off by the head size", initLine + "\n" + assistant("a1", "m1", "", text(strings.Repeat("x", 1000)))[:200], true},
		{"not json", "hello\n", false},
		{"other type with session_id", lines(msg("type", "event_msg")), false},
		{"empty", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (claudestream.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSamples(t *testing.T) {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "claude-stream-json", "*.jsonl"))
	if len(paths) == 0 {
		t.Skip("no samples")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !(claudestream.Importer{}).Detect(data[:min(len(data), 64<<10)]) {
				t.Error("not detected")
			}
			res := run(t, string(data))
			if len(res.Problems) > 0 {
				t.Errorf("problems: %v", res.Problems)
			}
			checkOracles(t, res.Events)
		})
	}
}

func FuzzImport(f *testing.F) {
	f.Add(lines(initLine, assistant("a1", "m1", "", use("t1", "Bash", obj{})), user("r1", "", result("t1", "ok", false)), end("success")))
	f.Add(lines(user("u1", "x", []obj{text("[Request interrupted by user]")}), "{"))
	f.Fuzz(func(t *testing.T, src string) {
		res, err := claudestream.Importer{}.Import(strings.NewReader(src), importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Events {
			if err := event.Validate(&res.Events[i]); err != nil {
				t.Fatalf("event %d: %v", i+1, err)
			}
		}
	})
}
