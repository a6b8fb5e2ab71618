package store_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/store"
)

// trace: text streaming, a parent tool with a child, a sibling, results.
func trace(t *testing.T) []event.Event {
	t.Helper()
	lines := `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":3,"kind":"text","text":"Let me "}
{"seq":3,"t":7,"kind":"text","text":"look."}
{"seq":4,"t":11,"kind":"tool_start","id":"task","name":"task","args":{}}
{"seq":5,"t":11,"kind":"tool_start","id":"b","name":"grep","args":{"pattern":"x"}}
{"seq":6,"t":23,"kind":"tool_start","id":"c1","name":"read","parent":"task","args":{"path":"a"}}
{"seq":7,"t":31,"kind":"tool_progress","id":"b","output":"1 match\n"}
{"seq":8,"t":37,"kind":"tool_done","id":"c1","ok":true}
{"seq":9,"t":45,"kind":"tool_done","id":"b","ok":true}
{"seq":10,"t":52,"kind":"tool_done","id":"task","ok":true}
{"seq":11,"t":60,"kind":"text","text":"Done."}
{"seq":12,"t":61,"kind":"turn_end"}
`
	_, evs, err := event.ReadAll(strings.NewReader(lines), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// records decodes the complete record lines of a log (header skipped).
func records(t *testing.T, log []byte) []store.Record {
	t.Helper()
	var out []store.Record
	for i, l := range bytes.Split(log, []byte{'\n'}) {
		if i == 0 || len(l) == 0 {
			continue
		}
		var r store.Record
		if json.Unmarshal(l, &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

func indexOf(recs []store.Record, pred func(store.Record) bool) int {
	for i, r := range recs {
		if pred(r) {
			return i
		}
	}
	return -1
}

func TestFaults(t *testing.T) {
	isText := func(r store.Record) bool { return r.Type == store.TypeAssistant && r.Text == "Let me look." }
	isCall := func(id string) func(store.Record) bool {
		return func(r store.Record) bool { return r.CallID == id && r.Type == store.TypeToolCall }
	}
	isResult := func(id string) func(store.Record) bool {
		return func(r store.Record) bool { return r.CallID == id && r.Type == store.TypeToolResult }
	}
	tests := []struct {
		fault fault.Fault
		check func(t *testing.T, p *store.Persisted, recs []store.Record)
	}{
		{"", func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if indexOf(recs, isText) > indexOf(recs, isCall("task")) || len(p.Expected) != 12 {
				t.Errorf("clean log out of order or lossy: %d expected events", len(p.Expected))
			}
		}},
		{fault.LateText, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if i := indexOf(recs, isText); i < indexOf(recs, isCall("task")) || recs[i].TS != "2025-01-01T00:00:00.003Z" {
				t.Errorf("text not written late with its start time: %+v", recs)
			}
		}},
		{fault.SubagentBlock, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if indexOf(recs, isCall("c1")) < indexOf(recs, isResult("b")) {
				t.Error("the child's records were not held until after the sibling's result")
			}
		}},
		{fault.Collapse, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			i := indexOf(recs, func(r store.Record) bool { return r.Type == store.TypeToolLifecycle && r.CallID == "b" })
			if i < 0 || recs[i].Updates != 1 || recs[i].Progress != "1 match\n" || recs[i].EndTS == "" || recs[i].OK == nil {
				t.Errorf("no complete lifecycle for b: %+v", recs)
			}
		}},
		{fault.NoSeq, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if indexOf(recs, func(r store.Record) bool { return r.Seq != nil }) >= 0 {
				t.Error("a record has a seq")
			}
		}},
		{fault.NoParent, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if indexOf(recs, func(r store.Record) bool { return r.Parent != "" }) >= 0 {
				t.Error("a record has a parent")
			}
		}},
		{fault.Ties, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if indexOf(recs, func(r store.Record) bool { return r.TS[len(r.TS)-2] != '0' }) >= 0 {
				t.Error("a timestamp is not on a 10 ms boundary")
			}
		}},
		{fault.Torn, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if bytes.HasSuffix(p.Log, []byte("\n")) || len(p.Expected) != 11 {
				t.Errorf("log ends whole, or expected %d events, want 11", len(p.Expected))
			}
		}},
		{fault.Kill, func(t *testing.T, p *store.Persisted, recs []store.Record) {
			if len(p.Expected) >= 12 {
				t.Error("a killed writer kept every event")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			var faults fault.List
			if tt.fault != "" {
				faults = fault.List{tt.fault}
			}
			p := store.Persist(trace(t), store.Options{Faults: faults, Seed: 1})
			tt.check(t, p, records(t, p.Log))
		})
	}
}

func TestDupRepeatsRecords(t *testing.T) {
	for seed := range uint64(20) {
		p := store.Persist(trace(t), store.Options{Faults: fault.List{fault.Dup}, Seed: seed})
		seen := map[string]bool{}
		for _, r := range records(t, p.Log) {
			if seen[r.ID] {
				return
			}
			seen[r.ID] = true
		}
	}
	t.Error("20 seeds of the dup fault never repeated a record")
}

func TestPersistDeterministic(t *testing.T) {
	opts := store.Options{Faults: fault.Log, Seed: 9}
	if a, b := store.Persist(trace(t), opts), store.Persist(trace(t), opts); !bytes.Equal(a.Log, b.Log) {
		t.Error("same seed and faults gave different logs")
	}
}

func TestParseFaults(t *testing.T) {
	if fs, err := fault.Parse("late-text, dup,late-text"); err != nil || len(fs) != 2 {
		t.Errorf("got %v %v", fs, err)
	}
	if _, err := fault.Parse("late-text,bogus"); err == nil || !strings.Contains(err.Error(), `unknown fault "bogus"`) {
		t.Errorf("bad fault accepted or unclear: %v", err)
	}
	if fs, _ := fault.Parse("all"); len(fs.Log()) != len(fault.Log) {
		t.Errorf("all gave %v", fs)
	}
}

// TestReusedIDsUnderSubagents: ids reused across sub-agent links (a call
// started under itself, a held block whose key later becomes a child) once
// made Persist loop forever. Found by the simulator (reused-id-batch with
// sub-agents). Every record must still be written, once.
func TestReusedIDsUnderSubagents(t *testing.T) {
	lines := `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":1,"kind":"tool_start","id":"a","name":"task","args":{}}
{"seq":3,"t":2,"kind":"tool_start","id":"c","name":"read","parent":"a","args":{}}
{"seq":4,"t":3,"kind":"tool_start","id":"a","name":"task","parent":"a","args":{}}
{"seq":5,"t":4,"kind":"tool_start","id":"b","name":"task","args":{}}
{"seq":6,"t":5,"kind":"tool_start","id":"b","name":"read","parent":"c","args":{}}
{"seq":7,"t":6,"kind":"tool_done","id":"c","ok":true}
{"seq":8,"t":7,"kind":"turn_end"}
`
	_, evs, err := event.ReadAll(strings.NewReader(lines), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := store.Persist(evs, store.Options{Faults: fault.List{fault.SubagentBlock}})
	recs := records(t, p.Log)
	calls := 0
	for _, r := range recs {
		if r.Type == store.TypeToolCall {
			calls++
		}
	}
	if calls != 5 {
		t.Errorf("got %d tool_call records, want 5 (one per start):\n%s", calls, p.Log)
	}
}

// TestCollapseDeniedKeepsProgressBeforeDenial: a collapsed lifecycle of a
// tool denied after some progress once replayed that progress after the
// denial (late_progress, update lost). Found by the simulator, seed 1533.
func TestCollapseDeniedKeepsProgressBeforeDenial(t *testing.T) {
	lines := `{"seq":1,"t":1368,"kind":"tool_start","id":"a","name":"grep","args":{}}
{"seq":2,"t":1493,"kind":"tool_progress","id":"a","output":"x\n"}
{"seq":3,"t":1528,"kind":"permission","id":"a","state":"denied"}
`
	_, evs, err := event.ReadAll(strings.NewReader(lines), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	recs := records(t, store.Persist(evs, store.Options{Faults: fault.List{fault.Collapse}}).Log)
	life := indexOf(recs, func(r store.Record) bool { return r.Type == store.TypeToolLifecycle })
	deny := indexOf(recs, func(r store.Record) bool { return r.Type == store.TypePermission })
	if life < 0 || deny < 0 {
		t.Fatalf("want a lifecycle and a permission record, got %+v", recs)
	}
	if recs[life].EndSeq == nil || recs[deny].Seq == nil || *recs[life].EndSeq >= *recs[deny].Seq {
		t.Errorf("lifecycle end_seq %v must come before the denial's seq %v", recs[life].EndSeq, recs[deny].Seq)
	}
}
