package codextui_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolsim/toolsim/formats/codextui"
	"github.com/toolsim/toolsim/importer"
)

// BenchmarkImport imports a synthetic log of 2,000 turns in the shape of a
// real one: a prompt, redraw noise, reasoning and message deltas, and a
// command with streamed output.
func BenchmarkImport(b *testing.B) {
	var buf bytes.Buffer
	for i := range 2000 {
		sec := fmt.Sprintf("%02d", i%60)
		id := fmt.Sprintf(`"call_%d"`, i)
		for _, l := range []string{
			op(sec, prompt),
			`{"dir":"to_tui","kind":"app_event","ts":"2025-09-02T11:20:` + sec + `.000Z","variant":"RequestRedraw"}`,
			ev(sec, `{"type":"task_started"}`),
			ev(sec, `{"type":"agent_reasoning_delta","delta":"**Checking the tests**"}`),
			ev(sec, `{"type":"exec_command_begin","call_id":`+id+`,"command":["bash","-lc","npm test"],"cwd":"/w"}`),
			ev(sec, `{"type":"exec_command_output_delta","call_id":`+id+`,"stream":"stdout","chunk":"UEFTUyBzcmMvbGlzdC50ZXN0LmpzCg=="}`),
			ev(sec, `{"type":"exec_command_end","call_id":`+id+`,"stdout":"PASS\n","stderr":"","aggregated_output":"PASS\n","exit_code":0,"duration":{"secs":1,"nanos":5000000}}`),
			ev(sec, `{"type":"agent_message_delta","delta":"All tests pass."}`),
			ev(sec, `{"type":"task_complete","last_agent_message":"All tests pass."}`),
		} {
			buf.WriteString(l + "\n")
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := codextui.Importer{}.Import(bytes.NewReader(data), importer.Options{})
		if err != nil || len(res.Problems) > 0 || len(res.Events) == 0 {
			b.Fatalf("import: %v %v", err, res.Problems)
		}
	}
}
