package vcr

import (
	"testing"

	"github.com/toolsim/toolsim/internal/jsonscan/jsonscantest"
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
		jsonscantest.Agree(t, data, fastRequestBody)
		jsonscantest.Agree(t, data, fastChatMsg)
	})
}

func TestFastDecodersAgree(t *testing.T) {
	for _, s := range fastSeeds {
		jsonscantest.Agree(t, []byte(s), fastRequestBody)
		jsonscantest.Agree(t, []byte(s), fastChatMsg)
	}
}
