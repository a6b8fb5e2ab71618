package gemini_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/gemini"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/importertest"
)

var seqRE = regexp.MustCompile(`^\{"seq":\d+,`)
var tRE = regexp.MustCompile(`^\{"t":\d+,`)

// doc wraps message objects in a recording.
func doc(messages ...string) string {
	return "{\n  \"sessionId\": \"s1\",\n  \"projectHash\": \"p\",\n  \"startTime\": \"2025-10-29T10:39:45.000Z\",\n  \"messages\": [\n    " +
		strings.Join(messages, ",\n    ") + "\n  ]\n}\n"
}

func imp(t *testing.T, withT bool, input string) ([]string, []string, string) {
	t.Helper()
	res, err := gemini.Importer{}.Import(strings.NewReader(input), importer.Options{Name: "t"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var evs []string
	for i := range res.Events {
		if err := event.Validate(&res.Events[i]); err != nil {
			t.Errorf("event %d invalid: %v", i+1, err)
		}
		line := seqRE.ReplaceAllString(string(event.AppendEvent(nil, &res.Events[i])), "{")
		if !withT {
			line = tRE.ReplaceAllString(line, "{")
		}
		evs = append(evs, line)
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	return evs, probs, string(res.Header.Meta)
}

const (
	user     = `{"id":"u1","timestamp":"2025-10-29T10:39:45.000Z","type":"user","content":"make a file"}`
	userTurn = `{"kind":"turn_start","role":"user"}`
	userEv   = `{"kind":"user","text":"make a file","message_id":"u1"}`
	asst     = `{"kind":"turn_start","role":"assistant"}`
	end      = `{"kind":"turn_end"}`
)

// gem builds a gemini message with the given toolCalls, at second 47
// (gem) or 50 (gem2).
func gem(id, calls string) string {
	return `{"id":"` + id + `","timestamp":"2025-10-29T10:39:47.000Z","type":"gemini","content":"","toolCalls":[` + calls + `],"model":"gemini-2.5-pro"}`
}

func gem2(id, calls string) string {
	return strings.Replace(strings.ReplaceAll(gem(id, calls), ":48.000Z", ":51.000Z"), ":47.000Z", ":50.000Z", 1)
}

// call builds a call finished at second 48.
func call(id, status, result string) string {
	idPart := ""
	if id != "" {
		idPart = `"id":"` + id + `",`
	}
	return `{` + idPart + `"name":"read_file","args":{"path":"a.txt"},"result":` + result + `,"status":"` + status + `","timestamp":"2025-10-29T10:39:48.000Z"}`
}

func resp(id, body string) string {
	return `[{"functionResponse":{"id":"` + id + `","name":"read_file","response":` + body + `}}]`
}

func TestMapping(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{
			name:  "user message is a user turn",
			input: doc(user),
			want:  []string{userTurn, userEv, end},
		},
		{
			name:  "success: tool_start then tool_done with the output",
			input: doc(user, gem("g1", call("c1", "success", resp("c1", `{"output":"hello"}`)))),
			want: []string{userTurn, userEv, end, asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"c1","output":"hello","ok":true}`},
		},
		{
			name:  "error: ok false with the error text",
			input: doc(gem("g1", call("c1", "error", resp("c1", `{"error":"File not found: a.txt"}`)))),
			want: []string{asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"error"}`,
				`{"kind":"tool_done","id":"c1","ok":false,"error":"File not found: a.txt"}`},
		},
		{
			name: "cancelled: no result, a cancel interrupts it; the turn ends at EOF",
			input: doc(gem("g1", call("c1", "success", resp("c1", `{"output":"x"}`))+","+
				call("c2", "cancelled", resp("c2", `{"error":"[Operation Cancelled] Reason: User cancelled the operation."}`)))),
			want: []string{asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_start","id":"c2","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"cancelled"}`,
				`{"kind":"tool_done","id":"c1","output":"x","ok":true}`,
				`{"kind":"cancel","reason":"[Operation Cancelled] Reason: User cancelled the operation.","cancelled_calls":[{"id":"c2","result":[{"functionResponse":{"id":"c2","name":"read_file","response":{"error":"[Operation Cancelled] Reason: User cancelled the operation."}}}]}]}`,
				end},
		},
		{
			name:  "a call without an id gets a generated one",
			input: doc(gem("g1", call("", "success", `[]`))),
			want: []string{asst,
				`{"kind":"tool_start","id":"gemini-call-1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","generated_id":true,"status":"success"}`,
				`{"kind":"tool_done","id":"gemini-call-1","ok":true}`},
		},
		{
			name: "the same id in two messages pairs with its own call",
			input: doc(gem("g1", call("glob:0", "success", resp("glob:0", `{"output":"one"}`))),
				gem2("g2", call("glob:0", "success", resp("glob:0", `{"output":"two"}`)))),
			want: []string{asst,
				`{"kind":"tool_start","id":"glob:0","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"glob:0","output":"one","ok":true}`,
				`{"kind":"tool_start","id":"glob:0","name":"read_file","args":{"path":"a.txt"},"batch":"g2","status":"success"}`,
				`{"kind":"tool_done","id":"glob:0","output":"two","ok":true}`},
		},
		{
			name:  "a call recorded while executing stays running",
			input: doc(gem("g1", call("c1", "executing", `null`))),
			want: []string{asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"executing"}`},
		},
		{
			name:  "awaiting approval asks permission",
			input: doc(gem("g1", call("c1", "awaiting_approval", `null`))),
			want: []string{asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"awaiting_approval"}`,
				`{"kind":"permission","id":"c1","state":"asked"}`},
		},
		{
			name: "thoughts, then text, then calls",
			input: doc(`{"id":"g1","timestamp":"2025-10-29T10:39:47.000Z","type":"gemini","content":"On it.","thoughts":[` +
				`{"subject":"Plan","description":"read it","timestamp":"2025-10-29T10:39:46.000Z"},` +
				`{"subject":"Go","description":"now","timestamp":"2025-10-29T10:39:46.500Z"}],"model":"gemini-2.5-pro"}`),
			want: []string{asst, `{"kind":"thinking","text":"**Plan**\nread it"}`, `{"kind":"thinking","text":"\n\n**Go**\nnow"}`,
				`{"kind":"text","text":"On it.","model":"gemini-2.5-pro"}`},
		},
		{
			name:  "content as a part list",
			input: doc(`{"id":"u1","timestamp":"2025-10-29T10:39:45.000Z","type":"user","content":[{"text":"make "},{"text":"a file"}]}`),
			want:  []string{userTurn, userEv, end},
		},
		{
			name: "the next user message ends the agent's turn",
			input: doc(user, `{"id":"g1","timestamp":"2025-10-29T10:39:47.000Z","type":"gemini","content":"Done."}`,
				strings.Replace(user, ":45.000Z", ":49.000Z", 1)),
			want: []string{userTurn, userEv, end, asst, `{"kind":"text","text":"Done."}`, end, userTurn, userEv, end},
		},
		{
			// Gemini CLI 0.61.0 records the results it sends the model as a
			// user message of functionResponse parts: not a prompt, and the
			// agent's turn goes on to its answer.
			name: "a user message of function responses only is no prompt",
			input: doc(user, gem("g1", call("c1", "success", resp("c1", `{"output":"hi"}`))),
				`{"id":"u2","timestamp":"2025-10-29T10:39:48.500Z","type":"user","content":`+resp("c1", `{"output":"hi"}`)+`}`,
				`{"id":"g2","timestamp":"2025-10-29T10:39:49.000Z","type":"gemini","content":"Done."}`),
			want: []string{userTurn, userEv, end, asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"c1","output":"hi","ok":true}`, `{"kind":"text","text":"Done."}`},
		},
		{
			name:  "error message is an error event",
			input: doc(`{"id":"e1","timestamp":"2025-10-29T10:39:47.000Z","type":"error","content":"quota exceeded"}`),
			want:  []string{asst, `{"kind":"error","message":"quota exceeded","message_id":"e1"}`},
		},
		{
			name:  "info messages are ignored",
			input: doc(`{"id":"i1","timestamp":"2025-10-29T10:39:47.000Z","type":"info","content":"Request cancelled."}`),
			want:  nil,
		},
		{
			name:  "resultDisplay is the output when the response has none",
			input: doc(gem("g1", `{"id":"c1","name":"ls","args":{},"result":[],"status":"success","resultDisplay":"Listed 3 items."}`)),
			want: []string{asst,
				`{"kind":"tool_start","id":"c1","name":"ls","args":{},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"c1","output":"Listed 3 items.","ok":true}`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, probs, _ := imp(t, false, tc.input)
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClockAndMeta(t *testing.T) {
	got, _, meta := imp(t, true, doc(user, gem("g1", call("c1", "success", `[]`))))
	want := []string{
		`{"t":0,"kind":"turn_start","role":"user"}`,
		`{"t":0,"kind":"user","text":"make a file","message_id":"u1"}`,
		`{"t":0,"kind":"turn_end"}`,
		`{"t":2000,"kind":"turn_start","role":"assistant"}`,
		`{"t":2000,"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
		`{"t":3000,"kind":"tool_done","id":"c1","ok":true}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	wantMeta := `{"format":"gemini-cli","project_hash":"p","session_id":"s1","start_time":"2025-10-29T10:39:45.000Z"}`
	if meta != wantMeta {
		t.Errorf("meta\n got %s\nwant %s", meta, wantMeta)
	}
}

func TestProblems(t *testing.T) {
	full := doc(user, gem("g1", call("c1", "success", `[]`)))
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"not JSON", "hello\n", []string{"line 1: malformed JSON: invalid character 'h' looking for beginning of value"}},
		{"unknown message type", doc(user, `{"id":"x","timestamp":"2025-10-29T10:39:46.000Z","type":"hologram"}`), []string{`line 7: unknown message type "hologram"`}},
		{"unknown call status", doc(gem("g1", call("c1", "exploded", `[]`))), []string{`line 6: tool call c1: unknown status "exploded": left running`}},
		{"truncated document", full[:len(full)-40], []string{"line 7: truncated JSON document: the messages up to here were imported"}},
		{"malformed in a message", strings.Replace(full, `"type":"user"`, `"type" "user"`, 1), []string{"line 6: malformed JSON: invalid character '\"' after object key"}},
		{"message of the wrong shape", doc(`{"id":"x","type":"gemini","content":"hi","toolCalls":"none"}`, user), []string{`line 6: message member "toolCalls": unexpected JSON string: left out`}},
		{"message not an object", doc(`"hello"`, user), []string{"line 6: message is not a JSON object: got string"}},
		{"no messages", `{"sessionId":"s"}`, []string{`line 1: no "messages" array`}},
		{"bad timestamp", doc(`{"id":"u","timestamp":"noon","type":"user","content":"x"}`), []string{`line 6: bad timestamp "noon": synthetic time used`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs, _ := imp(t, false, tc.input)
			if diff := cmp.Diff(tc.want, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTruncatedKeepsEarlierMessages(t *testing.T) {
	full := doc(user, gem("g1", call("c1", "success", `[]`)))
	got, probs, _ := imp(t, false, full[:len(full)-40])
	if len(probs) != 1 {
		t.Errorf("problems: %v", probs)
	}
	if diff := cmp.Diff([]string{userTurn, userEv, end}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestStrict(t *testing.T) {
	_, err := gemini.Importer{}.Import(strings.NewReader(doc(`{"id":"x","type":"hologram"}`)), importer.Options{Name: "s.json", Strict: true})
	if !errors.Is(err, importer.ErrStrict) || !strings.Contains(err.Error(), "s.json:line 6:") {
		t.Errorf("strict import: %v", err)
	}
}

func TestDetect(t *testing.T) {
	full := doc(user)
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"recording", full, true},
		{"compact recording", `{"sessionId":"s","messages":[]}`, true},
		{"head cut inside messages", full[:len(full)-20], true},
		{"messages before sessionId", `{"messages":[],"sessionId":"s"}`, false},
		{"JSON Lines session (newer Gemini CLI)", `{"sessionId":"s","projectHash":"p","startTime":"t"}` + "\n" + `{"id":"m","type":"user"}` + "\n", true},
		{"JSON Lines session, spaced", `{"sessionId": "s", "projectHash": "p"}` + "\n", true},
		{"first line without projectHash", `{"sessionId":"s","startTime":"t"}` + "\n", false},
		{"claude transcript line", `{"parentUuid":null,"sessionId":"s","message":{"role":"user"}}` + "\n", false},
		{"codex rollout", `{"timestamp":"2025-11-17T21:30:28.664Z","type":"session_meta","payload":{}}` + "\n", false},
		{"not JSON", "event: ping\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (gemini.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDetectSharedTraces checks Detect against every real sample: it
// accepts its own format's files and no other.
func TestDetectSharedTraces(t *testing.T) {
	importertest.DetectSharedTraces(t, gemini.Importer{}, "../../../shared/traces", "gemini-cli")
}
