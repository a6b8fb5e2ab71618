package claudetranscript_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/claudetranscript"
	"github.com/toolsim/toolsim/importer"
)

func TestMapping(t *testing.T) {
	cases := []mapCase{
		{
			name: "prompt and answer are a user turn then an assistant turn",
			src: lines(
				prompt("u1", "", 0, "Why does the build fail?"),
				say("a1", "u1", 1000, "m1", "Let me look."),
			),
			want: []string{
				"turn_start user", `user "Why does the build fail?"`, "turn_end",
				"turn_start assistant", `text "Let me look."`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if got := extra(res.Events[1], "uuid"); got != `"u1"` {
					t.Errorf("user uuid = %s, want \"u1\"", got)
				}
				if got := extra(res.Events[4], "uuid"); got != `"a1"` {
					t.Errorf("text uuid = %s, want \"a1\"", got)
				}
				if res.Events[4].T != 1000 {
					t.Errorf("text t = %d, want 1000 (ms since the first record)", res.Events[4].T)
				}
			},
		},
		{
			name: "thinking block",
			src: lines(
				prompt("u1", "", 0, "hi"),
				rec("assistant", "a1", "u1", 10, amsg("m1", thinking("The user greets."))),
				say("a2", "a1", 20, "m1", "Hello."),
			),
			want: []string{
				"turn_start user", `user "hi"`, "turn_end",
				"turn_start assistant", `thinking "The user greets."`, `text "Hello."`, "turn_end",
			},
		},
		{
			name: "parallel calls on separate lines share message.id: one batch; results in completion order pair by id",
			src: lines(
				prompt("u1", "", 0, "look"),
				call("a1", "u1", 100, "m1", "t1", "Bash"),
				call("a2", "a1", 110, "m1", "t2", "Glob"),
				call("a3", "a2", 120, "m1", "t3", "Glob"),
				answer("r2", "a3", 130, "t2", "b", false),
				answer("r3", "r2", 140, "t3", "c", false),
				answer("r1", "r3", 150, "t1", "a", false),
				say("a4", "r1", 200, "m2", "Done."),
			),
			want: []string{
				"turn_start user", `user "look"`, "turn_end",
				"turn_start assistant",
				"tool_start t1 Bash batch=m1", "tool_start t2 Glob batch=m1", "tool_start t3 Glob batch=m1",
				`tool_done t2 ok=true "b"`, `tool_done t3 ok=true "c"`, `tool_done t1 ok=true "a"`,
				`text "Done."`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if got := string(res.Events[4].Args); got != `{"command":"cmd t1"}` {
					t.Errorf("args = %s, want the tool_use input", got)
				}
			},
		},
		{
			name: "error result is a failed tool with the text as output and error",
			src: lines(
				prompt("u1", "", 0, "x"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				answer("r1", "a1", 20, "t1", "exit status 2", true),
				say("a2", "r1", 30, "m2", "It failed."),
			),
			want: []string{
				"turn_start user", `user "x"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1",
				`tool_done t1 ok=false "exit status 2" error="exit status 2"`,
				`text "It failed."`, "turn_end",
			},
		},
		{
			name: "durationMs of toolUseResult becomes duration_ms",
			src: lines(
				prompt("u1", "", 0, "x"),
				call("a1", "u1", 10, "m1", "t1", "Glob"),
				answer("r1", "a1", 900, "t1", "No files found", false, "toolUseResult", obj{"filenames": []string{}, "durationMs": 6, "numFiles": 0}),
			),
			want: []string{
				"turn_start user", `user "x"`, "turn_end",
				"turn_start assistant", "tool_start t1 Glob batch=m1",
				`tool_done t1 ok=true "No files found" duration=6`,
			},
		},
		{
			name: "user rejection is permission denied, the result text kept",
			src: lines(
				prompt("u1", "", 0, "plan it"),
				call("a1", "u1", 10, "m1", "t1", "ExitPlanMode"),
				answer("r1", "a1", 20, "t1", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", true),
				prompt("u2", "r1", 30, "[Request interrupted by user for tool use]"),
			),
			want: []string{
				"turn_start user", `user "plan it"`, "turn_end",
				"turn_start assistant", "tool_start t1 ExitPlanMode batch=m1",
				"permission t1 denied",
				`cancel "[Request interrupted by user for tool use]"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if got := extra(res.Events[5], "result"); !strings.HasPrefix(got, `"The user doesn't want to proceed`) {
					t.Errorf("permission result = %s, want the rejection text", got)
				}
			},
		},
		{
			name: "a permission not granted is denied too",
			src: lines(
				prompt("u1", "", 0, "write it"),
				call("a1", "u1", 10, "m1", "t1", "Write"),
				answer("r1", "a1", 20, "t1", "Claude requested permissions to write to /tmp/x, but you haven't granted it yet.", true),
				say("a2", "r1", 30, "m2", "I could not write it."),
			),
			want: []string{
				"turn_start user", `user "write it"`, "turn_end",
				"turn_start assistant", "tool_start t1 Write batch=m1", "permission t1 denied",
				`text "I could not write it."`, "turn_end",
			},
		},
		{
			name: "interrupt marker is a cancel that ends the turn, not a user message",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				rec("user", "u2", "a1", 20, umsg([]obj{text("[Request interrupted by user]")})),
				prompt("u3", "u2", 30, "try again"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1",
				`cancel "[Request interrupted by user]"`, "turn_end",
				"turn_start user", `user "try again"`, "turn_end",
			},
		},
		{
			name: "toolUseResult.interrupted cancels, merged with the marker that follows",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				answer("r1", "a1", 20, "t1", "partial output", false, "toolUseResult", obj{"stdout": "partial output", "stderr": "", "interrupted": true, "isImage": false}),
				prompt("u2", "r1", 21, "[Request interrupted by user for tool use]"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1",
				`tool_progress t1 "partial output"`,
				`cancel "[Request interrupted by user for tool use]"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				ev := res.Events[6]
				if got := extra(ev, "interrupted_ids"); got != `["t1"]` {
					t.Errorf("interrupted_ids = %s", got)
				}
				if got := extra(ev, "marker_uuid"); got != `"u2"` {
					t.Errorf("marker_uuid = %s", got)
				}
			},
		},
		{
			name: "interrupted result without a marker still cancels",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				answer("r1", "a1", 20, "t1", "[Request interrupted by user for tool use]", true),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1",
				`cancel "[Request interrupted by user for tool use]"`, "turn_end",
			},
		},
		{
			name: "image and text parts of a result",
			src: lines(
				prompt("u1", "", 0, "see"),
				call("a1", "u1", 10, "m1", "t1", "Read"),
				answer("r1", "a1", 20, "t1", []obj{text("the screenshot"), {"type": "image", "source": obj{"type": "base64", "data": "iVBOR"}}}, false),
			),
			want: []string{
				"turn_start user", `user "see"`, "turn_end",
				"turn_start assistant", "tool_start t1 Read batch=m1",
				`tool_done t1 ok=true "the screenshot\n[image]"`,
			},
		},
		{
			name: "prompt with an image keeps a placeholder",
			src: lines(
				rec("user", "u1", "", 0, umsg([]obj{text("this one"), {"type": "image", "source": obj{"data": "x"}}})),
			),
			want: []string{"turn_start user", `user "this one\n[image]"`, "turn_end"},
		},
		{
			name: "order follows the uuid chain, not the file",
			src: lines(
				prompt("u1", "", 0, "go"),
				answer("r1", "a1", 20, "t1", "ok", false),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1", `tool_done t1 ok=true "ok"`,
			},
		},
		{
			name: "a timestamp earlier than the line before is clamped, src_t kept",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 100, "m1", "t1", "Glob"),
				call("a2", "a1", 110, "m1", "t2", "Glob"),
				answer("r1", "a2", 200, "t1", "a", false),
				answer("r2", "r1", 150, "t2", "b", false),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Glob batch=m1", "tool_start t2 Glob batch=m1",
				`tool_done t1 ok=true "a"`, `tool_done t2 ok=true "b"`,
			},
			check: func(t *testing.T, res *importer.Result) {
				ev := res.Events[7]
				if ev.T != 200 || extra(ev, "src_t") != "150" {
					t.Errorf("t = %d src_t = %s, want 200 and 150", ev.T, extra(ev, "src_t"))
				}
			},
		},
		{
			name: "a branch (edited prompt) is followed depth first, siblings in file order",
			src: lines(
				prompt("u1", "", 0, "first try"),
				say("a1", "u1", 10, "m1", "answer one"),
				prompt("u2", "", 20, "second try"),
				say("a2", "u2", 30, "m2", "answer two"),
				say("a3", "a1", 40, "m3", "more of one"),
			),
			want: []string{
				"turn_start user", `user "first try"`, "turn_end",
				"turn_start assistant", `text "answer one"`, `text "more of one"`, "turn_end",
				"turn_start user", `user "second try"`, "turn_end",
				"turn_start assistant", `text "answer two"`, "turn_end",
			},
		},
		{
			name: "calls unanswered at end of file stay live: no turn_end",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				call("a2", "a1", 11, "m1", "t2", "Bash"),
				answer("r1", "a2", 20, "t1", "ok", false),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1", "tool_start t2 Bash batch=m1",
				`tool_done t1 ok=true "ok"`,
			},
		},
		{
			name: "file cut off after the last result: the turn stays open",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				answer("r1", "a1", 20, "t1", "ok", false),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1", `tool_done t1 ok=true "ok"`,
			},
		},
		{
			name: "a new prompt while a call is unanswered ends the turn",
			src: lines(
				prompt("u1", "", 0, "go"),
				call("a1", "u1", 10, "m1", "t1", "Bash"),
				prompt("u2", "a1", 5000, "hello?"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1", "turn_end",
				"turn_start user", `user "hello?"`, "turn_end",
			},
		},
		{
			name: "isMeta messages, summaries and snapshots are ignored and counted",
			src: lines(
				`{"type":"summary","summary":"Fix the build","leafUuid":"a1"}`,
				`{"type":"file-history-snapshot","messageId":"x","snapshot":{},"isSnapshotUpdate":false}`,
				rec("user", "u0", "", 0, umsg("Caveat: the messages below were generated by local commands."), "isMeta", true),
				prompt("u1", "u0", 1, "/init"),
				say("a1", "u1", 2, "m1", "ok"),
			),
			want: []string{
				"turn_start user", `user "/init"`, "turn_end",
				"turn_start assistant", `text "ok"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				var meta struct {
					Ignored map[string]int `json:"ignored"`
					Session string         `json:"session_id"`
				}
				if err := json.Unmarshal(res.Header.Meta, &meta); err != nil {
					t.Fatal(err)
				}
				want := map[string]int{"summary": 1, "file-history-snapshot": 1, "user (isMeta)": 1}
				if diff := cmp.Diff(want, meta.Ignored); diff != "" || meta.Session != "s1" {
					t.Errorf("meta = %s (-want +got):\n%s", res.Header.Meta, diff)
				}
			},
		},
		{
			name: "Claude Code 2.1.328's records beside the conversation are ignored and counted, the chain through them kept",
			src: lines(
				`{"type":"mode","mode":"normal","sessionId":"s1"}`,
				prompt("u1", "", 0, "go"),
				rec("attachment", "at1", "u1", 1, nil, "attachment", obj{"type": "deferred_tools"}, "session_id", "s1"),
				`{"type":"atis-latch","atis":"","sessionId":"s1"}`,
				`{"type":"api-request-shape","sessionId":"s1","shapeHash":"h","shape":{}}`,
				`{"type":"api-request-blob","sessionId":"s1","hash":"h","message":{}}`,
				`{"type":"api-request","sessionId":"s1","id":"r1","params":{}}`,
				call("a1", "at1", 2, "m1", "t1", "Bash"),
				answer("r1", "a1", 3, "t1", "ok", false),
				`{"type":"tools-used","tools":["Bash"],"sessionId":"s1"}`,
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", "tool_start t1 Bash batch=m1", `tool_done t1 ok=true "ok"`,
			},
			check: func(t *testing.T, res *importer.Result) {
				var meta struct {
					Ignored map[string]int `json:"ignored"`
				}
				if err := json.Unmarshal(res.Header.Meta, &meta); err != nil {
					t.Fatal(err)
				}
				want := map[string]int{"mode": 1, "attachment": 1, "atis-latch": 1, "api-request-shape": 1, "api-request-blob": 1, "api-request": 1, "tools-used": 1}
				if diff := cmp.Diff(want, meta.Ignored); diff != "" || len(res.Problems) > 0 {
					t.Errorf("meta = %s, problems %v (-want +got):\n%s", res.Header.Meta, res.Problems, diff)
				}
			},
		},
		{
			// Claude Code 2.1.328: the calls of one response chain one under
			// the other, and each result hangs under its own call, so the
			// first call's result is a leaf beside the second call.
			name: "a parallel call's result hung under its own call is placed by its time, not after the rest of the conversation",
			src: lines(
				prompt("u1", "", 0, "look"),
				call("a1", "u1", 100, "m1", "t1", "Glob"),
				call("a2", "a1", 110, "m1", "t2", "Read"),
				answer("r1", "a1", 200, "t1", "failed", true),
				answer("r2", "a2", 300, "t2", "b", false),
				say("a3", "r2", 400, "m2", "done"),
				prompt("u2", "a3", 500, "next"),
				call("a4", "u2", 600, "m3", "t3", "Bash"),
				rec("user", "x1", "a4", 700, umsg([]obj{text("[Request interrupted by user for tool use]")})),
			),
			want: []string{
				"turn_start user", `user "look"`, "turn_end",
				"turn_start assistant", "tool_start t1 Glob batch=m1", "tool_start t2 Read batch=m1",
				`tool_done t1 ok=false "failed" error="failed"`, `tool_done t2 ok=true "b"`, `text "done"`, "turn_end",
				"turn_start user", `user "next"`, "turn_end",
				"turn_start assistant", "tool_start t3 Bash batch=m3", `cancel "[Request interrupted by user for tool use]"`, "turn_end",
			},
		},
		{
			name: "system api_error is an error notice; other system records are ignored",
			src: lines(
				prompt("u1", "", 0, "go"),
				rec("system", "s1", "u1", 10, nil, "subtype", "api_error", "level", "error", "content", "API Error: 529 overloaded"),
				rec("system", "s2", "s1", 20, nil, "subtype", "informational", "content", "note"),
				say("a1", "s2", 30, "m1", "ok"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				`error "API Error: 529 overloaded"`,
				"turn_start assistant", `text "ok"`, "turn_end",
			},
		},
		{
			name: "synthetic API error message is an error notice",
			src: lines(
				prompt("u1", "", 0, "go"),
				rec("assistant", "a1", "u1", 10, amsg("m1", text("API Error: Request was aborted.")), "isApiErrorMessage", true),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				`error "API Error: Request was aborted."`,
			},
		},
		{
			name: "sub-agent chain linked by toolUseResult.agentId: children under the Task, its text as Task progress",
			src: lines(
				prompt("u1", "", 0, "explore"),
				rec("assistant", "a1", "u1", 10, amsg("m1", use("task1", "Task", obj{"prompt": "Find the config", "subagent_type": "Explore"}))),
				rec("user", "s1", "", 20, umsg("Find the config"), "isSidechain", true, "agentId", "ag1"),
				rec("assistant", "s2", "s1", 30, amsg("sm1", use("c1", "Grep", obj{"pattern": "config"})), "isSidechain", true, "agentId", "ag1"),
				rec("user", "s3", "s2", 40, umsg([]obj{result("c1", "src/config.go", false)}), "isSidechain", true, "agentId", "ag1"),
				rec("assistant", "s4", "s3", 50, amsg("sm2", text("It is in src/config.go")), "isSidechain", true, "agentId", "ag1"),
				answer("r1", "a1", 60, "task1", "It is in src/config.go", false, "toolUseResult", obj{"agentId": "ag1", "totalDurationMs": 50}),
				say("a2", "r1", 70, "m2", "Found it."),
			),
			want: []string{
				"turn_start user", `user "explore"`, "turn_end",
				"turn_start assistant", "tool_start task1 Task batch=m1",
				"tool_start c1 Grep batch=sm1 parent=task1", `tool_done c1 ok=true "src/config.go"`,
				`tool_progress task1 "It is in src/config.go\n"`,
				`tool_done task1 ok=true "It is in src/config.go" duration=50`, `text "Found it."`, "turn_end",
			},
		},
		{
			name: "sub-agent chain linked by its prompt, interleaved by time",
			src: lines(
				prompt("u1", "", 0, "explore"),
				rec("assistant", "a1", "u1", 10, amsg("m1", use("task1", "Task", obj{"prompt": "Find the config"}))),
				rec("assistant", "a2", "a1", 11, amsg("m1", use("t2", "Bash", obj{"command": "ls"}))),
				answer("r2", "a2", 35, "t2", "files", false),
				answer("r1", "r2", 60, "task1", "done", false),
				rec("user", "s1", "", 20, umsg("Find the config"), "isSidechain", true),
				rec("assistant", "s2", "s1", 30, amsg("sm1", use("c1", "Grep", obj{"pattern": "config"})), "isSidechain", true),
				rec("user", "s3", "s2", 40, umsg([]obj{result("c1", "hit", false)}), "isSidechain", true),
			),
			want: []string{
				"turn_start user", `user "explore"`, "turn_end",
				"turn_start assistant", "tool_start task1 Task batch=m1", "tool_start t2 Bash batch=m1",
				"tool_start c1 Grep batch=sm1 parent=task1", `tool_done t2 ok=true "files"`,
				`tool_done c1 ok=true "hit"`, `tool_done task1 ok=true "done"`,
			},
		},
		{
			name: "sub-agent messages nested in agent_progress records run under parentToolUseID",
			src: lines(
				prompt("u1", "", 0, "explore"),
				rec("assistant", "a1", "u1", 10, amsg("m1", use("task1", "Task", obj{"prompt": "Find"}))),
				rec("progress", "p1", "a1", 20, nil, "parentToolUseID", "task1", "toolUseID", "agent_msg_1",
					"data", obj{"type": "agent_progress", "agentId": "ag1", "message": obj{"type": "assistant", "uuid": "n1", "timestamp": at(20), "message": amsg("sm1", use("c1", "Grep", obj{"pattern": "x"}))}}),
				rec("progress", "p2", "p1", 30, nil, "parentToolUseID", "task1", "toolUseID", "agent_msg_2",
					"data", obj{"type": "agent_progress", "agentId": "ag1", "message": obj{"type": "user", "uuid": "n2", "timestamp": at(30), "message": umsg([]obj{result("c1", "hit", false)})}}),
				rec("progress", "p3", "p2", 35, nil, "parentToolUseID", "t9", "toolUseID", "bash-progress-0", "data", obj{"type": "bash_progress", "output": "..."}),
				answer("r1", "p3", 40, "task1", "done", false),
			),
			want: []string{
				"turn_start user", `user "explore"`, "turn_end",
				"turn_start assistant", "tool_start task1 Task batch=m1",
				"tool_start c1 Grep batch=sm1 parent=task1", `tool_done c1 ok=true "hit"`,
				`tool_done task1 ok=true "done"`,
			},
		},
		{
			name: "a file holding only a sub-agent chain is mapped as a conversation",
			src: lines(
				rec("user", "s1", "", 0, umsg("Find the config"), "isSidechain", true, "agentId", "ag1"),
				rec("assistant", "s2", "s1", 10, amsg("sm1", text("In src/.")), "isSidechain", true, "agentId", "ag1"),
			),
			want: []string{
				"turn_start user", `user "Find the config"`, "turn_end",
				"turn_start assistant", `text "In src/."`, "turn_end",
			},
		},
		{
			name: "a repeated uuid is skipped and counted",
			src: lines(
				prompt("u1", "", 0, "go"),
				say("a1", "u1", 10, "m1", "once"),
				say("a1", "u1", 10, "m1", "once"),
			),
			want: []string{
				"turn_start user", `user "go"`, "turn_end",
				"turn_start assistant", `text "once"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if !strings.Contains(string(res.Header.Meta), `"duplicate_uuids":1`) {
					t.Errorf("meta = %s, want duplicate_uuids 1", res.Header.Meta)
				}
			},
		},
		{
			name: "a record whose parent is not in the file starts a chain (resumed session)",
			src: lines(
				prompt("u1", "elsewhere", 0, "continue"),
				say("a1", "u1", 10, "m1", "ok"),
			),
			want: []string{
				"turn_start user", `user "continue"`, "turn_end",
				"turn_start assistant", `text "ok"`, "turn_end",
			},
			check: func(t *testing.T, res *importer.Result) {
				if !strings.Contains(string(res.Header.Meta), `"orphan_records":1`) {
					t.Errorf("meta = %s, want orphan_records 1", res.Header.Meta)
				}
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
		want     []string // problems, as "line N: reason" prefixes
		wantEvts int      // events still imported
	}{
		{
			name: "not JSON, unknown type, torn last line",
			src: lines(
				prompt("u1", "", 0, "go"),
				`this is not json`,
				rec("mystery", "x1", "u1", 5, nil),
				say("a1", "x1", 10, "m1", "ok"),
				`{"type":"assistant","uuid":"a2","parentUuid":"a1","message":{"content":[{"type":"te`,
			),
			want: []string{
				`line 2: malformed JSON: want a JSON object, got 't'`,
				`line 3: unknown record type "mystery": skipped`,
				`line 5: torn last line: the record is cut off`,
			},
			wantEvts: 6,
		},
		{
			name:     "malformed JSON in the middle is not called torn",
			src:      lines(`{"type":"user",`, prompt("u1", "", 0, "go")),
			want:     []string{`line 1: malformed JSON: unexpected end of JSON input`},
			wantEvts: 3,
		},
		{
			name:     "invalid escape",
			src:      lines(prompt("u1", "", 0, "go"), `{"type":"user","uuid":"u2","message":{"content":"a\qb"}}`),
			want:     []string{`line 2: malformed JSON: invalid escape 'q' in string`},
			wantEvts: 3,
		},
		{
			name:     "record without a type",
			src:      lines(`{"uuid":"u1","parentUuid":null}`, prompt("u2", "u1", 0, "go")),
			want:     []string{`line 1: record without a "type": skipped`},
			wantEvts: 3,
		},
		{
			name:     "unknown content block",
			src:      lines(prompt("u1", "", 0, "go"), rec("assistant", "a1", "u1", 1, amsg("m1", obj{"type": "hologram"}))),
			want:     []string{`line 2: assistant content block of unknown type "hologram": skipped`},
			wantEvts: 3,
		},
		{
			name:     "bad timestamp uses the synthetic clock",
			src:      lines(prompt("u1", "", 0, "go"), rec("assistant", "a1", "u1", 1, amsg("m1", text("ok")), "timestamp", "yesterday")),
			want:     []string{`line 2: timestamp "yesterday" does not parse`},
			wantEvts: 6,
		},
		{
			name: "sub-agent chain with no way to find its Task",
			src: lines(
				prompt("u1", "", 0, "explore"),
				rec("assistant", "a1", "u1", 10, amsg("m1", use("task1", "Task", obj{"prompt": "Find"}))),
				rec("user", "s1", "", 20, umsg("Something else"), "isSidechain", true),
				rec("assistant", "s2", "s1", 30, amsg("sm1", use("c1", "Grep", obj{"pattern": "x"})), "isSidechain", true),
			),
			want:     []string{`line 3: sub-agent chain: cannot tell which Task call it runs under`},
			wantEvts: 6,
		},
		{
			name: "parentUuid cycle",
			src: lines(
				prompt("u1", "", 0, "go"),
				say("a1", "a2", 10, "m1", "one"),
				say("a2", "a1", 20, "m2", "two"),
			),
			want:     []string{`line 2: parentUuid chain loops back on itself`},
			wantEvts: 7,
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

			_, err := claudetranscript.Importer{}.Import(strings.NewReader(tc.src), importer.Options{Name: "x", Strict: true})
			if !errors.Is(err, importer.ErrStrict) {
				t.Errorf("strict import: err = %v, want ErrStrict", err)
			}
		})
	}
}

func TestBlankAndCRLFLines(t *testing.T) {
	src := "\n" + prompt("u1", "", 0, "go") + "\r\n\n" + say("a1", "u1", 1, "m1", "ok") + "\r\n"
	res := run(t, src)
	if len(res.Problems) > 0 || len(res.Events) != 6 {
		t.Errorf("problems %v, events %q", res.Problems, briefs(res))
	}
}

func TestDetect(t *testing.T) {
	stream := `{"type":"system","subtype":"init","session_id":"s","tools":[]}` + "\n" +
		`{"type":"assistant","message":{"content":[]},"parent_tool_use_id":null,"session_id":"s","uuid":"x"}` + "\n"
	// Real transcripts write the chain members first, the message last.
	long := `{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s","version":"2.0.26","type":"user","message":{"role":"user","content":"` +
		strings.Repeat("x", 70000) + `"},"uuid":"u","timestamp":"` + at(0) + `"}`
	cases := []struct {
		name string
		head string
		want bool
	}{
		{"transcript", lines(prompt("u1", "", 0, "go")), true},
		{"snapshot first", lines(`{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`, prompt("u1", "", 0, "go")), true},
		{"session_id beside sessionId (Claude Code 2.1.328)", lines(`{"type":"mode","mode":"normal","sessionId":"s1"}`,
			rec("attachment", "at1", "", 0, nil, "session_id", "s1")), true},
		{"summary only", lines(`{"type":"summary","summary":"x","leafUuid":"y"}`), false},
		{"stream-json", stream, false},
		{"line cut off by the head size", long[:1000], true},
		{"not json", "hello\nworld\n", false},
		{"canonical trace", `{"trace":"toolsim/v1"}` + "\n" + `{"seq":1,"t":0,"kind":"turn_end"}` + "\n", false},
		{"empty", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (claudetranscript.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSamples checks the shared samples import cleanly; the formats
// regression suite checks their renders.
func TestSamples(t *testing.T) {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "claude-transcript", "*.jsonl"))
	if len(paths) == 0 {
		t.Skip("no samples")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !(claudetranscript.Importer{}).Detect(data[:min(len(data), 64<<10)]) {
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

// FuzzImport: no input makes the importer panic, and what it emits is
// valid canonical trace data.
func FuzzImport(f *testing.F) {
	f.Add(lines(prompt("u1", "", 0, "go"), call("a1", "u1", 1, "m1", "t1", "Bash"), answer("r1", "a1", 2, "t1", "ok", false)))
	f.Add(lines(rec("user", "s1", "", 0, umsg("x"), "isSidechain", true), say("a1", "a1", 1, "m", "y")))
	f.Add("{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"is_error\":true,\"content\":\"[Request interrupted by user]\"}]}}\n{")
	f.Fuzz(func(t *testing.T, src string) {
		res, err := claudetranscript.Importer{}.Import(strings.NewReader(src), importer.Options{})
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
