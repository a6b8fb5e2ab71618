package codexrollout

import (
	"testing"

	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/internal/jsonscan/jsonscantest"
)

// The fast decoder must agree with encoding/json wherever it answers.

var fastSeeds = []string{
	`{"timestamp":"2025-09-01T10:00:00.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}`,
	`{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c","duration":{"secs":1,"nanos":5},"turn_id":"t"}}`,
	`{"type":"session_meta","payload":{"id":"s","cwd":"/w","cli_version":"0.1","git":{"branch":"main"},"model":"gpt"}}`,
	`{"type":"x","payload":null}`, `{"type":1}`, `{"payload":{"type":2}}`, `{"payload":{"call_id":null,"Name":"x"}}`, `{"timestamp":null}`,
	`{"type":"a","type":"b"}`, `[{"type":"input_text","text":"a"},null,{"type":"input_image","image_url":"x"}]`, `[{"text":null,"Type":"x"}]`, `[1]`, `{"payload":{"content":[{"type":"input_text","text":"hi"}],"role":"user"}}`, `[]`, `null`, "{\"type\":\"\xff\"}",
}

func FuzzFastDecoder(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareFast(t, data) })
}

func TestFastDecoderAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		compareFast(t, []byte(s))
	}
}

func compareFast(t *testing.T, data []byte) {
	t.Helper()
	var buf []jsonscan.Member
	jsonscantest.Agree(t, data, fastParts)
	jsonscantest.Agree(t, data, func(b []byte, env *envelope) bool {
		scratch := payload{Type: "left", Name: "from the line before"} // a reused scratch is reset
		return fastEnvelope(b, env, &buf, &scratch)
	})
}
