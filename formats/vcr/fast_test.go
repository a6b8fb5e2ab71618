package vcr

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The fast decoders must agree with encoding/json wherever they answer.

var fastSeeds = []string{
	`{"model":"m","system":"be brief","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`,
	`{"instructions":"x","input":[{"type":"message","role":"user","content":"q"}],"previous_response_id":"r1"}`,
	`{"messages":[]}`, `{"messages":null}`, `{"messages":[null,1]}`, `{"Messages":[]}`, `{"instructions":1}`,
	`{"role":"assistant","tool_calls":[null,{"index":0,"function":null}]}`, `{"role":"x","tool_calls":[{"index":1.5}]}`,
	`{"tool_calls":[{"function":{"Name":"a"}}]}`, `[]`, `null`, "{\"role\":\"\xff\"}",
}

func FuzzFastDecoders(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareFast(t, data, fastRequestBody)
		compareFast(t, data, fastChatMsg)
	})
}

func TestFastDecodersAgree(t *testing.T) {
	for _, s := range fastSeeds {
		compareFast(t, []byte(s), fastRequestBody)
		compareFast(t, []byte(s), fastChatMsg)
	}
}

// compareFast checks that fast, where it answers, decodes data as
// json.Unmarshal does.
func compareFast[T any](t *testing.T, data []byte, fast func([]byte, *T) bool) {
	t.Helper()
	var got, want T
	if !fast(data, &got) {
		return
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("fast decoder accepted %q; encoding/json: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast decoder on %q:\n got %+v\nwant %+v", data, got, want)
	}
}
