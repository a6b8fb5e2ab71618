package codexexec

import (
	"testing"

	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/internal/jsonscan/jsonscantest"
)

// The fast decoders must agree with encoding/json wherever they answer.

var fastSeeds = []string{
	`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\nb","exit_code":0,"status":"completed"}}`,
	`{"type":"turn.completed","usage":{"input_tokens":1}}`, `{"type":"turn.failed","error":{"message":"boom"}}`, `{"type":"error","message":"x","error":null}`,
	`{"id":null,"text":"t","exit_code":1.5}`, `{"exit_code":"1"}`, `{"ID":"x"}`, `{"id":"a","id":"b"}`, `{"type":"thread.started","thread_id":"t1"}`,
	`{"item_type":"assistant_message","text":null,"arguments":{"a":[1]},"receiver_thread_ids":["x"]}`, `[]`, `null`, "{\"type\":\"\xff\"}",
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

func compareFast(t *testing.T, data []byte) {
	t.Helper()
	var buf []jsonscan.Member
	jsonscantest.Agree(t, data, func(b []byte, l *line) bool { return fastLine(b, l, &buf) })
	jsonscantest.Agree(t, data, func(b []byte, it *item) bool { return fastItem(b, it, &buf) })
}
