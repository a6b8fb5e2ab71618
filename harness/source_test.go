package harness_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/internal/race"
	"github.com/toolsim/toolsim/sim"
)

// encode writes a trace in the canonical format, for a stream to read.
func encode(t testing.TB, evs []event.Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, &event.Header{Trace: "toolsim/v1"}, evs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// opener streams a canonical trace from its bytes, afresh at each call.
func opener(data []byte) func() (harness.Source, error) {
	return func() (harness.Source, error) {
		r := event.NewReader(bytes.NewReader(data), event.ReaderOptions{})
		if _, err := r.Header(); err != nil {
			return nil, err
		}
		return r, nil
	}
}

// TestCheckSourceFindsWhatCheckCaseFinds: a streamed check reports the
// same violations as a check of the events in memory, for correct and
// broken engines alike.
func TestCheckSourceFindsWhatCheckCaseFinds(t *testing.T) {
	engines := []struct {
		name string
		new  func() harness.Engine
	}{
		{"reference", reference},
		{"last-item pairing", planted.LastItemPairing},
		{"name FIFO pairing", planted.NameFIFOPairing},
		{"cancel leaves a spinner", planted.CancelLeavesSpinner},
		{"upgrade loses the first", planted.UpgradeLosesFirst},
	}
	for _, e := range engines {
		for seed := range uint64(12) {
			t.Run(fmt.Sprintf("%s/seed=%d", e.name, seed), func(t *testing.T) {
				sc := sim.Generate(seed, sim.Options{})
				want := harness.CheckCase(e.new, &harness.Case{Events: sc.Events}, harness.Options{})
				got, err := harness.CheckSource(e.new, opener(encode(t, sc.Events)), harness.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(harness.Violation{})); diff != "" {
					t.Errorf("violations (-CheckCase +CheckSource):\n%s", diff)
				}
			})
		}
	}
}

// TestCheckSourceReportsReadErrors: a trace that breaks off mid-way is an
// error naming the line, not a violation and not a pass.
func TestCheckSourceReportsReadErrors(t *testing.T) {
	data := encode(t, sim.Generate(3, sim.Options{}).Events)
	lines := bytes.SplitAfter(data, []byte("\n"))
	bad := slices.Concat(bytes.Join(lines[:4], nil), []byte("{\"seq\": \"x\"}\n"), bytes.Join(lines[4:], nil))
	_, err := harness.CheckSource(reference, opener(bad), harness.Options{})
	if err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("CheckSource on a trace broken at line 5: err = %v, want one naming line 5", err)
	}
	open := errors.New("no such trace")
	if _, err := harness.CheckSource(reference, func() (harness.Source, error) { return nil, open }, harness.Options{}); !errors.Is(err, open) {
		t.Errorf("CheckSource with a failing open: err = %v, want %v", err, open)
	}
}

// TestOrderOracleReversesRuns: the order oracle's trace reverses each run
// of consecutive results for distinct ids, keeping seq and t in place,
// whether the trace is in memory or streamed, with its values reused or
// not.
func TestOrderOracleReversesRuns(t *testing.T) {
	done := func(id string) event.Event { return event.Event{Kind: event.KindToolDone, ID: id, OK: true} }
	evs := []event.Event{
		{Kind: event.KindToolStart, ID: "a"}, done("a"), done("b"), done("c"),
		{Kind: event.KindText, Text: "x"}, done("d"), done("d"), done("e"), done(""), done("f"),
	}
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(10*(i+1))
	}
	want := []string{"start a", "done c", "done b", "done a", "text", "done d", "done e", "done d", "done ", "done f"}
	for _, tt := range reversings(evs) {
		t.Run(tt.name, func(t *testing.T) {
			var ids []string
			for i, ev := range tt.got {
				if ev.Seq != int64(i+1) || ev.T != int64(10*(i+1)) {
					t.Errorf("event %d has seq %d t %d, want them kept in place", i, ev.Seq, ev.T)
				}
				switch ev.Kind {
				case event.KindToolStart:
					ids = append(ids, "start "+ev.ID)
				case event.KindToolDone:
					ids = append(ids, "done "+ev.ID)
				default:
					ids = append(ids, string(ev.Kind))
				}
			}
			if diff := cmp.Diff(want, ids); diff != "" {
				t.Errorf("reordered trace (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReorderedStreamReusesSafely: on generated traces, the reordered
// trace read from a stream with its values reused is the one read from
// memory.
func TestReorderedStreamReusesSafely(t *testing.T) {
	if race.Enabled {
		t.Skip("single-goroutine and heavy: make test runs it in its second step, without -race")
	}
	for seed := range uint64(100) {
		evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
		all := reversings(evs)
		for _, tt := range all[1:] {
			if diff := cmp.Diff(all[0].got, tt.got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("seed %d, %s (-in memory +%s):\n%s", seed, tt.name, tt.name, diff)
			}
		}
	}
}

// reordered is the order oracle's trace of evs read one way.
type reordered struct {
	name string
	got  []event.Event
}

// reversings is the order oracle's trace of evs read three ways.
func reversings(evs []event.Event) []reordered {
	return []reordered{
		{"in memory", harness.ReversedForTest(harness.SliceSource(evs), false)},
		{"streamed", harness.ReversedForTest(&streamed{evs: evs}, false)},
		{"streamed, values reused", harness.ReversedForTest(&streamed{evs: evs}, true)},
	}
}

// streamed is a trace read one event at a time into the caller's value,
// as a file is.
type streamed struct {
	evs []event.Event
	i   int
}

func (s *streamed) Next(ev *event.Event) error {
	if s.i == len(s.evs) {
		return io.EOF
	}
	*ev = s.evs[s.i]
	s.i++
	return nil
}

// keeper is the reference engine that also keeps every event pointer it
// is given and fails (Err) when a kept event changed: an engine may keep
// them unless it says it copies events.
type keeper struct {
	*engine.Engine
	kept []*event.Event
	seqs []int64
}

func (k *keeper) Apply(ev *event.Event) {
	k.kept, k.seqs = append(k.kept, ev), append(k.seqs, ev.Seq)
	k.Engine.Apply(ev)
}

func (k *keeper) CopiesEvents() bool { return false }

func (k *keeper) Err() error {
	for i, ev := range k.kept {
		if ev.Seq != k.seqs[i] {
			return fmt.Errorf("the event of seq %d kept at Apply now has seq %d", k.seqs[i], ev.Seq)
		}
	}
	return nil
}

// counter is the reference engine counting the distinct event values it
// is given.
type counter struct {
	*engine.Engine
	values map[*event.Event]bool
}

func (c *counter) Apply(ev *event.Event) {
	c.values[ev] = true
	c.Engine.Apply(ev)
}

// TestStreamedEventsAreFreshUnlessCopied: a streamed check gives an engine
// that may keep pointers a fresh value per event (nothing it kept
// changes), and one that copies what it keeps the same few values again
// and again.
func TestStreamedEventsAreFreshUnlessCopied(t *testing.T) {
	evs := sim.Generate(3, sim.Options{Faults: fault.All(), Swarm: true}).Events
	open := func() (harness.Source, error) { return &streamed{evs: evs}, nil }
	keep := func() harness.Engine { return &keeper{Engine: engine.New(engine.Options{})} }
	found, err := harness.CheckSource(keep, open, harness.Options{})
	if err != nil || len(found) > 0 {
		t.Fatalf("an engine keeping its events: %v %v", err, found)
	}
	var counters []*counter
	count := func() harness.Engine {
		c := &counter{Engine: engine.New(engine.Options{}), values: map[*event.Event]bool{}}
		counters = append(counters, c)
		return c
	}
	if found, err := harness.CheckSource(count, open, harness.Options{}); err != nil || len(found) > 0 {
		t.Fatalf("an engine copying its events: %v %v", err, found)
	}
	for i, c := range counters {
		if len(c.values) > 4 {
			t.Errorf("replay %d gave %d distinct event values for %d events, want a few reused", i+1, len(c.values), len(evs))
		}
	}
}

// longSource generates longTrace's events one at a time, so that a check
// of a million events never holds them.
type longSource struct {
	n, i, turn, k int
}

func (s *longSource) Next(ev *event.Event) error {
	if s.i >= s.n && s.k == 0 {
		return io.EOF
	}
	*ev = longEvent(s.turn, s.k)
	s.i++
	ev.Seq, ev.T = int64(s.i), int64(s.i)*10
	if s.k++; s.k == turnEvents {
		s.k, s.turn = 0, s.turn+1
	}
	return nil
}

// nextRequest is the reference engine behind a server that runs an
// approved call in the next request (contract.ApprovedNext): a result
// for approved call "a" while "b" runs reaches nobody.
type nextRequest struct {
	harness.Engine
	bDone bool
}

func (e *nextRequest) Apply(ev *event.Event) {
	if ev.Kind == event.KindToolDone && ev.ID == "b" {
		e.bDone = true
	}
	if ev.Kind == event.KindToolDone && ev.ID == "a" && !e.bDone {
		return
	}
	e.Engine.Apply(ev)
}

// TestOrderOracleInsideContract: under a contract, the order oracle
// leaves alone a reordering the contract rules out (an approved call's
// result before its sibling's, under approved-next), and still checks it
// without the contract.
func TestOrderOracleInsideContract(t *testing.T) {
	evs := []event.Event{
		{Kind: event.KindToolStart, ID: "a", Name: "grep"}, {Kind: event.KindToolStart, ID: "b", Name: "grep"},
		{Kind: event.KindPermission, ID: "a", State: event.PermissionAsked}, {Kind: event.KindPermission, ID: "a", State: event.PermissionGranted},
		{Kind: event.KindToolDone, ID: "b", OK: true}, {Kind: event.KindToolDone, ID: "a", OK: true},
	}
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(10*(i+1))
	}
	eng := func() harness.Engine { return &nextRequest{Engine: reference()} }
	order := func(vs []harness.Violation) bool {
		return slices.ContainsFunc(vs, func(v harness.Violation) bool { return v.Oracle == harness.OracleOrder })
	}
	if vs := harness.CheckCase(eng, &harness.Case{Events: evs}, harness.Options{}); !order(vs) {
		t.Fatalf("without a contract: violations %v, want the order oracle's", vs)
	}
	c := contract.Contract{Guarantees: contract.List{contract.ApprovedNext}}
	if vs := harness.CheckCase(eng, &harness.Case{Events: evs}, harness.Options{Contract: c}); order(vs) {
		t.Fatalf("under approved-next: violations %v, want none of the order oracle's", vs)
	}
}
