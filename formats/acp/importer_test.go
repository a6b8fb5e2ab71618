package acp_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/formats/acp"
	"github.com/toolsim/toolsim/importer"
)

const readArgs = `args={"kind":"read","title":"Read a"}`

func TestTurnsAndText(t *testing.T) {
	runCases(t, []mapCase{
		{
			name: "prompt, chunks, end_turn (raw lines, synthetic clock)",
			in:   lines(promptReq(1, "hi"), chunk("Hel"), chunk("lo"), stop(1, "end_turn")),
			want: with(turn(1, "hi"),
				`2 text text="Hel"`, `3 text text="lo"`, `4 turn_end +stop_reason="end_turn"`),
		},
		{
			name: "prefixed lines: timestamps give the clock",
			in: lines(
				jb("12,975", "OUT", promptReq(1, "hi")),
				"2025-11-14 19:57:13,000 [    461]   INFO - SomethingElse - unrelated",
				jb("13,442", "IN", chunk("ok")),
				jb("14,000", "IN", stop(1, "end_turn"))),
			want: with(turn(0, "hi"), `467 text text="ok"`, `1025 turn_end +stop_reason="end_turn"`),
			meta: `{"ignored":{"other log lines":1},"sessionId":"s1"}`,
		},
		{
			name: "thinking, and a prompt's text blocks joined, other blocks kept",
			in: lines(
				rpc(`"id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"a"},{"type":"resource_link","name":"R","uri":"/r"},{"type":"text","text":"b"}]}`),
				upd(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}`),
				upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","name":"R","uri":"/r"}}`)),
			want: []string{
				`1 turn_start role="user"`,
				`1 user text="a\nb" +attachments=[{"type":"resource_link","name":"R","uri":"/r"}]`,
				`1 turn_end`, `1 turn_start role="assistant"`,
				`2 thinking text="hmm"`, `3 text text="[R](/r)"`,
			},
		},
		{
			name: "user chunks outside a prompt form one user turn; agent output opens an implicit turn",
			in: lines(
				upd(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix "}}`),
				upd(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"it"}}`),
				chunk("done"),
				upd(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"again"}}`)),
			want: []string{
				`1 turn_start role="user"`, `1 user text="fix it"`, `1 turn_end`,
				`1 turn_start role="assistant" +implicit=true`, `1 text text="done"`,
				`2 turn_end`, `2 turn_start role="user"`, `2 user text="again"`, `2 turn_end`,
			},
		},
		{
			name: "session/load replay is closed by its response",
			in: lines(
				rpc(`"id":1,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}`),
				chunk("old answer"),
				result(1, `{}`)),
			want: []string{`1 turn_start role="assistant" +implicit=true`, `1 text text="old answer"`, `2 turn_end`},
			meta: `{"clock":"synthetic","cwd":"/w","ignored":{"session/load":1,"session/load result":1},"sessionId":"s1"}`,
		},
		{
			name: "a prompt while the previous one is unanswered closes it",
			in:   lines(promptReq(1, "a"), promptReq(2, "b"), stop(2, "end_turn")),
			want: with(with(turn(1, "a"), `2 turn_end +unanswered=true`), with(turn(2, "b")[:4], `3 turn_end +stop_reason="end_turn"`)...),
		},
		{
			name: "other stop reasons are kept on turn_end",
			in:   lines(promptReq(1, "a"), stop(1, "max_tokens")),
			want: with(turn(1, "a"), `2 turn_end +stop_reason="max_tokens"`),
		},
		{
			name: "an error response to a prompt is a stream error",
			in:   lines(promptReq(1, "a"), rpc(`"id":1,"error":{"code":-32603,"message":"overloaded"}`)),
			want: with(turn(1, "a"), `2 error message="overloaded (code -32603)"`,
				`2 turn_end +error={"code":-32603,"message":"overloaded"}`),
		},
		{
			name: "initialize and session/new fill the header meta",
			in: lines(
				jb("12,000", "OUT", rpc(`"id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"clientInfo":{"name":"ide","version":"1.2"}}`)),
				jb("12,100", "IN", result(1, `{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"bot","version":"0.1"}}`)),
				jb("12,200", "OUT", rpc(`"id":2,"method":"session/new","params":{"cwd":"/proj","mcpServers":[]}`)),
				jb("12,300", "IN", result(2, `{"sessionId":"abc"}`))),
			meta: `{"agent":"bot 0.1","client":"ide 1.2","cwd":"/proj","ignored":{"initialize":1,"initialize result":1,"session/new":1,"session/new result":1},"protocolVersion":1,"sessionId":"abc"}`,
		},
		{
			name: "known but irrelevant kinds and methods are counted",
			in: lines(
				promptReq(1, "a"),
				upd(`{"sessionUpdate":"plan","entries":[]}`),
				upd(`{"sessionUpdate":"available_commands_update","availableCommands":[]}`),
				upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":""}}`),
				rpc(`"id":5,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/a"}`),
				result(5, `{"content":"x"}`),
				rpc(`"method":"_zed/hello","params":{}`),
				"plain log line"),
			want: turn(1, "a"),
			meta: `{"clock":"synthetic","ignored":{"_zed/hello":1,"fs/read_text_file":1,"fs/read_text_file result":1,"other log lines":1,"session/update agent_message_chunk (empty)":1,"session/update available_commands_update":1,"session/update plan":1},"sessionId":"s1"}`,
		},
	})
}

func TestTools(t *testing.T) {
	start := func(tm int, id, batch string) string {
		return fmt.Sprintf(`%d tool_start id=%q name="Read a" %s batch=%q +tool_kind="read"`, tm, id, readArgs, batch)
	}
	runCases(t, []mapCase{
		{
			name: "call, completed with rawOutput content",
			in: lines(promptReq(1, "a"),
				call("t1", "Read a", `,"rawInput":{"path":"/a","limit":10}`),
				patch("t1", `,"status":"completed","rawOutput":{"content":"file text"}`)),
			want: with(turn(1, "a"),
				`2 tool_start id="t1" name="Read a" args={"path":"/a","limit":10} batch="prompt-1.1" +tool_kind="read"`,
				`3 tool_done id="t1" output="file text" ok=true`),
		},
		{
			name: "args without rawInput: title, kind, locations and path",
			in: lines(promptReq(1, "a"),
				upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Edit","kind":"edit","locations":[{"path":"/x.go","line":3}],"rawInput":{}}`)),
			want: with(turn(1, "a"),
				`2 tool_start id="t1" name="Edit" args={"kind":"edit","locations":[{"path":"/x.go","line":3}],"path":"/x.go","title":"Edit"} batch="prompt-1.1" +tool_kind="edit"`),
		},
		{
			name: "patch semantics: progress deltas, metadata-only patch, failure",
			in: lines(promptReq(1, "a"),
				call("t1", "Read a", ""),
				patch("t1", `,"status":"in_progress","content":`+text("ab")),
				patch("t1", `,"content":`+text("abcd")),
				patch("t1", `,"title":"Read b"`),
				patch("t1", `,"content":`+text("xyz")),
				patch("t1", `,"status":"failed","content":`+text("boom")+`,"rawOutput":{"code":1}`)),
			want: with(turn(1, "a"),
				start(2, "t1", "prompt-1.1"),
				`3 tool_progress id="t1" output="ab" details={"status":"in_progress"}`,
				`4 tool_progress id="t1" output="cd"`,
				`5 tool_update id="t1" name="Read b"`,
				`6 tool_progress id="t1" output="xyz"`,
				`7 tool_done id="t1" output="{\"code\":1}" ok=false error="boom"`),
		},
		{
			name: "completed without content keeps the streamed output; diff content as placeholder",
			in: lines(promptReq(1, "a"),
				call("t1", "Read a", ""),
				patch("t1", `,"status":"completed"`),
				call("t2", "Read a", ""),
				patch("t2", `,"status":"completed","content":[{"type":"diff","path":"/x","newText":"n"}]`)),
			want: with(turn(1, "a"),
				start(2, "t1", "prompt-1.1"),
				`3 tool_done id="t1" ok=true`,
				start(4, "t2", "prompt-1.2"),
				`5 tool_done id="t2" output="[diff /x]" ok=true +acp={"content":[{"type":"diff","path":"/x","newText":"n"}]}`),
		},
		{
			name: "the same id announced twice in a turn updates the call (tool_update), not a second call",
			in: lines(promptReq(1, "a"),
				call("t1", "Read a", ""),
				upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read /src/a.go","kind":"read","status":"in_progress","rawInput":{"path":"/src/a.go"}}`),
				patch("t1", `,"status":"completed"`)),
			want: with(turn(1, "a"),
				start(2, "t1", "prompt-1.1"),
				`3 tool_update id="t1" name="Read /src/a.go" args={"path":"/src/a.go"} +tool_kind="read" +reannounced=true`,
				`4 tool_done id="t1" ok=true`),
		},
		{
			name: "the same id in a later turn is a new call",
			in: lines(promptReq(1, "a"), call("t1", "Read a", ""), patch("t1", `,"status":"completed"`), stop(1, "end_turn"),
				promptReq(2, "b"), call("t1", "Read a", "")),
			want: with(with(turn(1, "a"), start(2, "t1", "prompt-1.1"), `3 tool_done id="t1" ok=true`, `4 turn_end +stop_reason="end_turn"`),
				with(turn(5, "b"), start(6, "t1", "prompt-2.1"))...),
		},
		{
			name: "announced with a final status: start then result",
			in: lines(promptReq(1, "a"),
				upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read a","kind":"read","status":"completed","content":`+text("done")+`}`)),
			want: with(turn(1, "a"), start(2, "t1", "prompt-1.1"), `2 tool_done id="t1" output="done" ok=true`),
		},
		{
			name: "batches: pending together, progress between, then a new step, then after text",
			in: lines(promptReq(1, "a"),
				call("t1", "Read a", ""),
				patch("t1", `,"status":"in_progress"`),
				call("t2", "Read a", ""),
				patch("t1", `,"status":"completed"`),
				patch("t2", `,"status":"completed"`),
				call("t3", "Read a", ""),
				chunk("x"),
				call("t4", "Read a", "")),
			want: with(turn(1, "a"),
				start(2, "t1", "prompt-1.1"),
				`3 tool_progress id="t1" details={"status":"in_progress"}`,
				start(4, "t2", "prompt-1.1"),
				`5 tool_done id="t1" ok=true`, `6 tool_done id="t2" ok=true`,
				start(7, "t3", "prompt-1.2"),
				`8 text text="x"`,
				start(9, "t4", "prompt-1.3")),
		},
		{
			name: "an update for an id never announced is passed on for the engine to report",
			in:   lines(promptReq(1, "a"), patch("zz", `,"status":"completed"`)),
			want: with(turn(1, "a"), `2 tool_done id="zz" ok=true`),
		},
	})
}

func TestPermissionsAndCancel(t *testing.T) {
	start := `2 tool_start id="t1" name="Read a" ` + readArgs + ` batch="prompt-1.1" +tool_kind="read"`
	runCases(t, []mapCase{
		{
			name: "permission allowed",
			in:   lines(promptReq(1, "a"), call("t1", "Read a", ""), askPerm(7, "t1"), answer(7, `{"outcome":"selected","optionId":"always"}`)),
			want: with(turn(1, "a"), start, `3 permission id="t1" state="asked"`, `4 permission id="t1" state="granted" +option="always"`),
		},
		{
			name: "permission rejected",
			in:   lines(promptReq(1, "a"), call("t1", "Read a", ""), askPerm(7, "t1"), answer(7, `{"outcome":"selected","optionId":"no"}`), patch("t1", `,"status":"failed"`)),
			want: with(turn(1, "a"), start, `3 permission id="t1" state="asked"`, `4 permission id="t1" state="denied" +option="no"`, `5 tool_done id="t1" ok=false`),
		},
		{
			name: "permission cancelled",
			in:   lines(promptReq(1, "a"), call("t1", "Read a", ""), askPerm(7, "t1"), answer(7, `{"outcome":"cancelled"}`)),
			want: with(turn(1, "a"), start, `3 permission id="t1" state="asked"`, `4 permission id="t1" state="denied" +outcome="cancelled"`),
		},
		{
			name: "permission for a call not announced starts it",
			in:   lines(promptReq(1, "a"), askPerm(7, "t9")),
			want: with(turn(1, "a"),
				`2 tool_start id="t9" name="Run rm" args={"command":"rm -rf target"} batch="prompt-1.1" +announced_by="session/request_permission" +tool_kind="execute"`,
				`2 permission id="t9" state="asked"`),
		},
		{
			name: "request ids of the two sides are separate (markers learnt from the first request)",
			in: lines(
				jb("10,000", "OUT", promptReq(1, "a")),
				jb("10,100", "IN", call("t1", "Read a", "")),
				jb("10,200", "IN", askPerm(1, "t1")),
				jb("10,300", "OUT", answer(1, `{"outcome":"selected","optionId":"yes"}`)),
				jb("10,400", "IN", stop(1, "end_turn"))),
			want: with(turn(0, "a"),
				`100 tool_start id="t1" name="Read a" `+readArgs+` batch="prompt-1.1" +tool_kind="read"`,
				`200 permission id="t1" state="asked"`,
				`300 permission id="t1" state="granted" +option="yes"`,
				`400 turn_end +stop_reason="end_turn"`),
		},
		{
			name: "raw lines: a colliding id goes to the request whose result shape fits",
			in: lines(promptReq(1, "a"), call("t1", "Read a", ""), askPerm(1, "t1"),
				answer(1, `{"outcome":"selected","optionId":"yes"}`), stop(1, "end_turn")),
			want: with(turn(1, "a"), start, `3 permission id="t1" state="asked"`,
				`4 permission id="t1" state="granted" +option="yes"`, `5 turn_end +stop_reason="end_turn"`),
		},
		{
			name: "session/cancel, then stopReason cancelled: one cancel",
			in: lines(promptReq(1, "a"), call("t1", "Read a", ""),
				rpc(`"method":"session/cancel","params":{"sessionId":"s1"}`),
				patch("t1", `,"status":"failed"`),
				stop(1, "cancelled")),
			want: with(turn(1, "a"), start, `3 cancel reason="session/cancel"`, `4 tool_done id="t1" ok=false`, `5 turn_end +stop_reason="cancelled"`),
		},
		{
			name: "stopReason cancelled without session/cancel adds the cancel",
			in:   lines(promptReq(1, "a"), call("t1", "Read a", ""), stop(1, "cancelled")),
			want: with(turn(1, "a"), start, `3 cancel reason="stopReason: cancelled"`, `3 turn_end +stop_reason="cancelled"`),
		},
	})
}

func TestProblems(t *testing.T) {
	runCases(t, []mapCase{
		{
			name: "prefixed line with broken JSON",
			in: lines(
				jb("10,000", "OUT", promptReq(1, "a")),
				jb("10,100", "IN", `{"jsonrpc":"2.0","method":"session/update","params":{`),
				jb("10,200", "IN", chunk("ok"))),
			want:     with(turn(0, "a"), `200 text text="ok"`),
			problems: []string{"line 2: malformed JSON after IN:"},
		},
		{
			name:     "transport line without a message",
			in:       lines(jb("10,000", "IN", ""), jb("10,100", "IN", "not json")),
			problems: []string{"line 1: transport line without a JSON-RPC message after IN:", "line 2: transport line without"},
		},
		{
			name:     "raw line with broken JSON, and a JSON line that is not JSON-RPC",
			in:       lines(`{"jsonrpc":"2.0",`, `{"type":"assistant"}`),
			problems: []string{"line 1: malformed JSON", "line 2: not a JSON-RPC request"},
		},
		{
			name:     "unknown method",
			in:       lines(promptReq(1, "a"), rpc(`"method":"session/explode","params":{}`), rpc(`"id":3,"method":"tools/call","params":{}`)),
			want:     turn(1, "a"),
			problems: []string{`line 2: unknown method "session/explode"`, `line 3: unknown method "tools/call"`},
		},
		{
			name: "unknown session/update kind (even one the SDK would read as a user chunk)",
			in: lines(promptReq(1, "a"),
				upd(`{"sessionUpdate":"agent_dance","content":{"type":"text","text":"x"}}`),
				upd(`{"content":{"type":"text","text":"x"}}`)),
			want:     turn(1, "a"),
			problems: []string{`line 2: unknown session/update kind "agent_dance"`, "line 3: session/update without a sessionUpdate kind"},
		},
		{
			name:     "bad params",
			in:       lines(promptReq(1, "a"), upd(`{"sessionUpdate":"tool_call","toolCallId":5,"title":"x"}`)),
			want:     turn(1, "a"),
			problems: []string{"line 2: session/update: bad params"},
		},
		{
			name:     "error response without an id",
			in:       lines(rpc(`"id":null,"error":{"code":-32700,"message":"Parse error"}`)),
			problems: []string{`line 1: error response without a request id: {"code":-32700,"message":"Parse error"}`},
		},
		{
			name:     "response to a request the log does not show",
			in:       lines(stop(4, "end_turn")),
			problems: []string{"line 1: response to request id 4, which the log does not show"},
		},
		{
			name:     "permission answer with an option not offered",
			in:       lines(promptReq(1, "a"), askPerm(7, "t1"), answer(7, `{"outcome":"selected","optionId":"maybe"}`)),
			want:     with(turn(1, "a"), `2 tool_start id="t1" name="Run rm" args={"command":"rm -rf target"} batch="prompt-1.1" +announced_by="session/request_permission" +tool_kind="execute"`, `2 permission id="t1" state="asked"`),
			problems: []string{`line 3: permission answer selects option "maybe"`},
		},
		{
			name: "unknown tool status is mapped as progress and reported",
			in:   lines(promptReq(1, "a"), call("t1", "Read a", ""), patch("t1", `,"status":"cancelled"`)),
			want: with(turn(1, "a"),
				`2 tool_start id="t1" name="Read a" `+readArgs+` batch="prompt-1.1" +tool_kind="read"`,
				`3 tool_progress id="t1" details={"status":"cancelled"}`),
			problems: []string{`line 3: tool call t1: unknown status "cancelled"`},
		},
	})
}

func TestStrict(t *testing.T) {
	_, err := importString(t, lines(promptReq(1, "a"), rpc(`"method":"nope"`), rpc(`"method":"nope2"`)), true)
	var se *importer.StrictError
	if !errors.As(err, &se) || !errors.Is(err, importer.ErrStrict) || se.Problem.Line != 2 {
		t.Fatalf("strict import: got %v", err)
	}
}

func TestDetect(t *testing.T) {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	sample, err := os.ReadFile(dir + "/acp/jetbrains-transport.log")
	if err != nil {
		t.Skipf("sample not available: %v", err)
	}
	for _, tc := range []struct {
		name string
		head string
		want bool
	}{
		{"jetbrains transport log", string(sample[:min(len(sample), 64<<10)]), true},
		{"raw ACP lines", lines(promptReq(1, "a"), chunk("x")), true},
		{"raw ACP with spaces", `{"jsonrpc": "2.0", "method": "session/update", "params": {}}` + "\n", true},
		{"log lines first, then ACP", lines("INFO starting", jb("10,000", "IN", chunk("x"))), true},
		{"ACP initialize", lines(rpc(`"id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}`)), true},
		{"MCP initialize", lines(rpc(`"id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"x"}}`), rpc(`"id":1,"method":"tools/call","params":{}`)), false},
		{"claude stream JSONL", lines(`{"type":"system","subtype":"init","session_id":"x"}`, upd(`{}`)), false},
		{"escaped ACP inside another format", lines(`{"type":"user","text":"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\"}"}`), false},
		{"SSE", "event: message_start\ndata: {\"type\":\"message_start\"}\n\n", false},
		{"plain log", "2025-11-14 19:57:12,975 [ 1] INFO - Foo - IN: nothing\n", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (acp.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTimestampsAndMarkers(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"dot fraction and T separator", lines(
			"2025-11-14T19:57:12.500Z IN: "+promptReq(1, "a"),
			"2025-11-14T19:57:13.75Z IN: "+chunk("x")),
			with(turn(0, "a"), `1250 text text="x"`)},
		{"zone offsets are honoured", lines(
			"2025-11-14T20:00:00.000+01:00 OUT: "+promptReq(1, "a"),
			"2025-11-14T19:00:01.000Z IN: "+chunk("x")),
			with(turn(0, "a"), `1000 text text="x"`)},
		{"a marker inside the message is not the marker", lines(
			"2025-11-14 19:57:12,000 x IN: "+promptReq(1, "a"),
			"2025-11-14 19:57:12,010 x IN: "+chunk("CHECK IN: OUT: now")),
			with(turn(0, "a"), `10 text text="CHECK IN: OUT: now"`)},
		{"no marker, jsonrpc after a prefix; no timestamp", lines(
			"[agent] "+promptReq(1, "a"), "[agent] "+chunk("x")),
			with(turn(1, "a"), `2 text text="x"`)},
		{"an earlier timestamp is clamped", lines(
			jb("12,000", "OUT", promptReq(1, "a")),
			jb("11,000", "IN", chunk("x"))),
			with(turn(0, "a"), `0 text text="x" +src_t=-1000`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := importString(t, tc.in, false)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range res.Events {
				got = append(got, show(ev))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if len(res.Problems) > 0 {
				t.Errorf("problems: %v", res.Problems)
			}
		})
	}
}
