package codexexec_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/codexexec"
	"github.com/toolsim/toolsim/importer"
)

// FuzzImport: no input makes the importer panic or emit an invalid trace
// (every event valid, seq 1, 2, …, t non-decreasing).
func FuzzImport(f *testing.F) {
	f.Add(thread + "\n" + started + "\n" + cmdStart + "\n" + `{"type":"item.updated","item":{"id":"item_1","type":"command_execution","aggregated_output":"a"}}` + "\n" + complete + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		res, err := codexexec.Importer{}.Import(strings.NewReader(in), importer.Options{})
		if err != nil {
			return
		}
		var lastT int64
		for i := range res.Events {
			ev := &res.Events[i]
			if err := event.Validate(ev); err != nil {
				t.Fatalf("event %d: %v", i+1, err)
			}
			if ev.Seq != int64(i+1) || ev.T < lastT {
				t.Fatalf("event %d: seq %d t %d after t %d", i+1, ev.Seq, ev.T, lastT)
			}
			lastT = ev.T
		}
		_, serr := codexexec.Importer{}.Import(strings.NewReader(in), importer.Options{Strict: true})
		if serr != nil && len(res.Problems) == 0 {
			t.Fatalf("strict import failed without problems: %v", serr)
		}
	})
}
