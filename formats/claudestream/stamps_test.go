package claudestream_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/formats/claudestream"
	"github.com/toolsim/toolsim/importer"
)

// TestArrivalStamps: lines without a time of their own take the arrival
// stamps toolsim record captured (Options.Stamps), not the synthetic clock.
func TestArrivalStamps(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"system","subtype":"init","session_id":"s1","tools":[]}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"make"}}]},"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"ok"}]},"session_id":"s1"}`,
	}, "\n") + "\n"
	res, err := claudestream.Importer{}.Import(strings.NewReader(in), importer.Options{Name: "t", Stamps: []int64{2, 504, 1016}})
	if err != nil {
		t.Fatal(err)
	}
	var ts []int64
	for _, ev := range res.Events {
		ts = append(ts, ev.T)
	}
	if len(ts) == 0 || ts[len(ts)-1] != 1016 {
		t.Errorf("event times %v, want the stamps 2, 504, 1016 (the last event at 1016)", ts)
	}
	for _, v := range ts {
		if v != 2 && v != 504 && v != 1016 {
			t.Errorf("event time %d is not an arrival stamp (times %v)", v, ts)
		}
	}
}
