package acp

import (
	"encoding/json"
	"reflect"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders must agree with encoding/json wherever they answer.

var fastSeeds = []string{
	`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","rawInput":{"command":"ls"},"content":null,"locations":[{"path":"/a"}]}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","rawInput":{"a":1},"rawOutput":"x"}}}`,
	`{"jsonrpc":"2.0","id":"a","result":{"stopReason":"end_turn"}}`, `{"id":null,"error":{"code":-1,"message":"m"}}`,
	`{"Method":"x"}`, `{"method":1}`, `{"params":{"update":null}}`, `{"params":{"update":"x"}}`, `{"params":{"update":{"RawInput":1}}}`,
	`{"params":{"toolCall":{"rawInput":1},"toolCall":{}}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I will"}}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a"}},{"type":"diff","path":"/p","newText":"x"}]}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"T","kind":"execute","status":"pending","rawInput":{"c":"ls"},"locations":[{"path":"/a","line":3}]}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"x","priority":"high","status":"pending"}]}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1,"size":2}}`, `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":5}}`,
	`{"sessionId":"s1","update":{"sessionUpdate":"bogus","content":{"type":"text","text":"x"}}}`, `{"sessionId":1,"update":{}}`, `[]`, `null`, "{\"method\":\"\xff\"}", ` {"id" : 1 } `,
}

func FuzzFastDecoders(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareFast(t, data) })
}

func TestFastDecodersAgree(t *testing.T) {
	for _, s := range fastSeeds {
		compareFast(t, []byte(s))
	}
}

// compareFast checks the envelope and raw tool call decoders on data.
func compareFast(t *testing.T, data []byte) {
	t.Helper()
	var buf []jsonscan.Member
	var got, want envelope
	if fastEnvelope(data, &got, &buf) {
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("fast envelope accepted %q; encoding/json: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fast envelope on %q:\n got %+v\nwant %+v", data, got, want)
		}
	}
	var n, wantN acpsdk.SessionNotification
	if fastNotification(data, &n, &buf) {
		if err := json.Unmarshal(data, &wantN); err != nil {
			t.Fatalf("fast notification accepted %q; the SDK: %v", data, err)
		}
		if !reflect.DeepEqual(n, wantN) {
			t.Fatalf("fast notification on %q:\n got %+v\nwant %+v", data, n, wantN)
		}
	}
	var upd rawUpdate
	_ = json.Unmarshal(data, &upd)
	if got := rawToolCallOf(data, "update", &buf); !reflect.DeepEqual(got, upd.Update) {
		t.Fatalf("raw update of %q:\n got %+v\nwant %+v", data, got, upd.Update)
	}
	var perm struct {
		ToolCall rawToolCall `json:"toolCall"`
	}
	_ = json.Unmarshal(data, &perm)
	if got := rawToolCallOf(data, "toolCall", &buf); !reflect.DeepEqual(got, perm.ToolCall) {
		t.Fatalf("raw toolCall of %q:\n got %+v\nwant %+v", data, got, perm.ToolCall)
	}
}
