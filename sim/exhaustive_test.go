package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/race"
	"github.com/toolsim/toolsim/sim"
)

// exhaustiveCases is every option set the table tests enumerate in full.
func exhaustiveCases() []sim.ExhaustiveOptions {
	var cases []sim.ExhaustiveOptions
	for tools := 1; tools <= 4; tools++ {
		for progress := 0; progress <= 1; progress++ {
			for _, cancel := range []bool{false, true} {
				cases = append(cases, sim.ExhaustiveOptions{Tools: tools, Progress: progress, Cancel: cancel})
			}
		}
	}
	return append(cases,
		sim.ExhaustiveOptions{Tools: 2, Progress: 2, Cancel: true, BatchIDs: true},
		sim.ExhaustiveOptions{Tools: 3, Progress: 2, Cancel: false, BatchIDs: true},
		sim.ExhaustiveOptions{Tools: 3, Progress: 2, Cancel: true},
	)
}

func exhaustiveName(o sim.ExhaustiveOptions) string {
	return fmt.Sprintf("tools=%d/progress=%d/cancel=%t/batch=%t", o.Tools, o.Progress, o.Cancel, o.BatchIDs)
}

// TestExhaustiveTraces enumerates each case, checks every trace and that
// the number yielded is what ExhaustiveCount promised.
func TestExhaustiveTraces(t *testing.T) {
	if race.Enabled {
		t.Skip("single-goroutine and heavy: make test runs it in its second step, without -race")
	}
	for _, opts := range exhaustiveCases() {
		t.Run(exhaustiveName(opts), func(t *testing.T) {
			want, err := sim.ExhaustiveCount(opts)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			err = sim.Exhaustive(opts, func(evs []event.Event) bool {
				got++
				if err := checkExhaustive(opts, evs); err != nil {
					t.Fatalf("trace %d %q: %v", got, exhSignature(evs), err)
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("yielded %d traces, ExhaustiveCount says %d", got, want)
			}
			t.Logf("%d traces", got)
		})
	}
}

// TestExhaustiveCountClosedForm checks ExhaustiveCount against counts
// worked out by hand and, without Cancel, against the closed form
// (N*m)! / (m!^N * N!) for N chains of m events with ordered starts.
func TestExhaustiveCountClosedForm(t *testing.T) {
	hand := []struct {
		name string
		opts sim.ExhaustiveOptions
		want int
	}{
		// s1 d1 s2 d2, s1 s2 d1 d2, s1 s2 d2 d1
		{"two tools", sim.ExhaustiveOptions{Tools: 2}, 3},
		// s1 X, s1 X d1, s1 d1 X
		{"one tool cancel", sim.ExhaustiveOptions{Tools: 1, Cancel: true}, 3},
		// s1 (2), s1 p1 (2), s1 p1 d1 (1)
		{"one tool progress cancel", sim.ExhaustiveOptions{Tools: 1, Progress: 1, Cancel: true}, 5},
		// s1 (2), s1 s2 (1+2!), s1 d1 (1), s1 s2 d1 (2), s1 s2 d2 (2),
		// s1 d1 s2 (2), three full orders (1 each)
		{"two tools cancel", sim.ExhaustiveOptions{Tools: 2, Cancel: true}, 15},
		{"four tools one progress", sim.ExhaustiveOptions{Tools: 4, Progress: 1}, 15400},
	}
	for _, tc := range hand {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := sim.ExhaustiveCount(tc.opts); err != nil || got != tc.want {
				t.Fatalf("ExhaustiveCount = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
	for tools := 1; tools <= 4; tools++ {
		for progress := 0; progress <= 2; progress++ {
			opts := sim.ExhaustiveOptions{Tools: tools, Progress: progress}
			want := exhFactorial(tools*(progress+2)) / exhFactorial(tools)
			for range tools {
				want /= exhFactorial(progress + 2)
			}
			if got, err := sim.ExhaustiveCount(opts); err != nil || got != want {
				t.Errorf("%s: ExhaustiveCount = %d, %v; closed form %d", exhaustiveName(opts), got, err, want)
			}
		}
	}
}

func exhFactorial(n int) int {
	f := 1
	for k := 2; k <= n; k++ {
		f *= k
	}
	return f
}

// TestExhaustiveCancelAtEndIsEveryOrder checks that the cancelled traces
// with the whole batch before the cancel are exactly the plain orders.
func TestExhaustiveCancelAtEndIsEveryOrder(t *testing.T) {
	plain := sim.ExhaustiveOptions{Tools: 3, Progress: 1}
	want := exhSignatures(t, plain)
	cancelled := plain
	cancelled.Cancel = true
	var got []string
	for _, s := range exhSignatures(t, cancelled) {
		if rest, ok := strings.CutSuffix(s, " X"); ok && strings.Count(rest, " ") == 3*3-1 {
			got = append(got, rest)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("full-length cancelled traces differ from the plain orders: %d vs %d", len(got), len(want))
	}
}

// TestExhaustiveOrder pins the deterministic order on small cases.
func TestExhaustiveOrder(t *testing.T) {
	tests := []struct {
		name string
		opts sim.ExhaustiveOptions
		want []string
	}{
		// After s1, t1's result (index 0) is tried before t2's start.
		{"two tools", sim.ExhaustiveOptions{Tools: 2}, []string{
			"s1 d1 s2 d2", "s1 s2 d1 d2", "s1 s2 d2 d1",
		}},
		{"one tool cancel", sim.ExhaustiveOptions{Tools: 1, Cancel: true}, []string{
			"s1 X", "s1 X d1", "s1 d1 X",
		}},
		// Preorder: a prefix's traces, (a) then (b), before its extensions.
		{"two tools cancel", sim.ExhaustiveOptions{Tools: 2, Cancel: true}, []string{
			"s1 X", "s1 X d1",
			"s1 d1 X", "s1 d1 s2 X", "s1 d1 s2 X d2", "s1 d1 s2 d2 X",
			"s1 s2 X", "s1 s2 X d1 d2", "s1 s2 X d2 d1",
			"s1 s2 d1 X", "s1 s2 d1 X d2", "s1 s2 d1 d2 X",
			"s1 s2 d2 X", "s1 s2 d2 X d1", "s1 s2 d2 d1 X",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := exhSignatures(t, tc.opts)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestExhaustiveDistinct checks that no trace is yielded twice and that two
// runs give the same sequence. exhSignatures also writes every trace with
// event.WriteAll, which checks events and their order on its own.
func TestExhaustiveDistinct(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true, BatchIDs: true}
	first := exhSignatures(t, opts)
	seen := make(map[string]int, len(first))
	for i, s := range first {
		if j, dup := seen[s]; dup {
			t.Fatalf("traces %d and %d are both %q", j, i, s)
		}
		seen[s] = i
	}
	if again := exhSignatures(t, opts); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Fatal("two runs gave different sequences")
	}
	t.Logf("%d distinct traces", len(first))
}

// TestExhaustiveCancelPoints searches for particular cancel points: right
// after the last start, between a tool's last progress and its result (with
// and without the late result), and after everything.
func TestExhaustiveCancelPoints(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 2, Progress: 1, Cancel: true}
	seen := make(map[string]bool)
	for _, s := range exhSignatures(t, opts) {
		seen[s] = true
	}
	for _, want := range []string{
		"s1 s2 X",
		"s1 s2 X d1 d2",
		"s1 s2 X d2 d1",
		"s1 p1 X",
		"s1 p1 X d1",
		"s1 s2 p1 p2 d2 X d1",
		"s1 s2 p2 p1 X d1 d2",
		"s1 p1 d1 s2 p2 X",
		"s1 p1 d1 s2 p2 X d2",
		"s1 s2 p1 p2 d2 d1 X",
	} {
		if !seen[want] {
			t.Errorf("no trace %q", want)
		}
	}
	for _, absent := range []string{"X", "s2 s1 X", "s1 d1 X d1", "s1 X p1"} {
		if seen[absent] {
			t.Errorf("unexpected trace %q", absent)
		}
	}
}

func TestExhaustiveBadOptions(t *testing.T) {
	tests := []struct {
		name  string
		opts  sim.ExhaustiveOptions
		field string
	}{
		{"no tools", sim.ExhaustiveOptions{}, "Tools"},
		{"negative tools", sim.ExhaustiveOptions{Tools: -1}, "Tools"},
		{"five tools", sim.ExhaustiveOptions{Tools: 5}, "Tools"},
		{"negative progress", sim.ExhaustiveOptions{Tools: 1, Progress: -1}, "Progress"},
		{"three progress", sim.ExhaustiveOptions{Tools: 2, Progress: 3, Cancel: true}, "Progress"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := sim.Exhaustive(tc.opts, func([]event.Event) bool { calls++; return true })
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("Exhaustive error %v, want one naming %s", err, tc.field)
			}
			if calls != 0 {
				t.Errorf("yield called %d times", calls)
			}
			if n, err := sim.ExhaustiveCount(tc.opts); err == nil || n != 0 || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("ExhaustiveCount = %d, %v; want an error naming %s", n, err, tc.field)
			}
		})
	}
}

// TestExhaustiveEarlyStop stops the enumeration at various depths, in the
// middle of the late-result orders too.
func TestExhaustiveEarlyStop(t *testing.T) {
	two := sim.ExhaustiveOptions{Tools: 2, Cancel: true}
	tests := []struct {
		name string
		opts sim.ExhaustiveOptions
		stop int    // yield returns false on this call
		last string // the signature of that trace, when pinned
	}{
		{"first", sim.ExhaustiveOptions{Tools: 3, Progress: 1}, 1, "s1 p1 d1 s2 p2 d2 s3 p3 d3"},
		{"plain", sim.ExhaustiveOptions{Tools: 3, Progress: 1}, 17, ""},
		{"dropped", two, 7, "s1 s2 X"},
		{"late", two, 8, "s1 s2 X d1 d2"},
		{"late order", two, 9, "s1 s2 X d2 d1"},
		{"last", two, 15, "s1 s2 d2 d1 X"},
		{"deep", sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}, 1000, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls, last := 0, ""
			err := sim.Exhaustive(tc.opts, func(evs []event.Event) bool {
				calls++
				last = exhSignature(evs)
				return calls < tc.stop
			})
			if err != nil {
				t.Fatal(err)
			}
			if calls != tc.stop {
				t.Fatalf("yield called %d times, want %d", calls, tc.stop)
			}
			if tc.last != "" && last != tc.last {
				t.Fatalf("stopped at %q, want %q", last, tc.last)
			}
		})
	}
}

// TestExhaustiveReusesBuffer checks the allocation promise: the setup
// allocates, the traces do not.
func TestExhaustiveReusesBuffer(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true}
	var first *event.Event
	traces := 0
	allocs := testing.AllocsPerRun(3, func() {
		traces = 0
		_ = sim.Exhaustive(opts, func(evs []event.Event) bool {
			if traces == 0 {
				first = &evs[0]
			} else if &evs[0] != first {
				t.Fatal("yield got a new slice")
			}
			traces++
			return true
		})
	})
	if allocs > 100 {
		t.Fatalf("%v allocations for %d traces", allocs, traces)
	}
}

func BenchmarkExhaustive4(b *testing.B) {
	opts := sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}
	traces, events := 0, 0
	for b.Loop() {
		_ = sim.Exhaustive(opts, func(evs []event.Event) bool {
			traces++
			events += len(evs)
			return true
		})
	}
	b.ReportMetric(float64(traces)/b.Elapsed().Seconds(), "traces/s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// exhSignatures returns the signature of every trace for opts, in order,
// after writing the trace with event.WriteAll.
func exhSignatures(t *testing.T, opts sim.ExhaustiveOptions) []string {
	t.Helper()
	var sigs []string
	if err := sim.Exhaustive(opts, func(evs []event.Event) bool {
		if err := event.WriteAll(io.Discard, nil, evs); err != nil {
			t.Fatalf("%q: %v", exhSignature(evs), err)
		}
		sigs = append(sigs, exhSignature(evs))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return sigs
}

// exhSignature spells the events between the text and turn_end: s1 for t1's
// start, p1 for a progress, d1 for its result, X for the cancel.
func exhSignature(evs []event.Event) string {
	var b bytes.Buffer
	for i := 2; i < len(evs)-1; i++ {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		switch ev := &evs[i]; ev.Kind {
		case event.KindToolStart:
			b.WriteString("s" + ev.ID[1:])
		case event.KindToolProgress:
			b.WriteString("p" + ev.ID[1:])
		case event.KindToolDone:
			b.WriteString("d" + ev.ID[1:])
		case event.KindCancel:
			b.WriteString("X")
		default:
			b.WriteString(string(ev.Kind))
		}
	}
	return b.String()
}

// checkExhaustive checks one trace against everything Exhaustive promises.
func checkExhaustive(opts sim.ExhaustiveOptions, evs []event.Event) error {
	if err := checkExhaustiveFrame(evs); err != nil {
		return err
	}
	c := &exhaustiveCheck{opts: opts, stage: make([]int, opts.Tools)}
	for i := 2; i < len(evs)-1; i++ {
		if err := c.event(&evs[i]); err != nil {
			return fmt.Errorf("seq %d: %w", evs[i].Seq, err)
		}
	}
	return c.end()
}

// checkExhaustiveFrame checks seq, t, each event on its own, and the turn
// around the batch.
func checkExhaustiveFrame(evs []event.Event) error {
	if len(evs) < 4 {
		return fmt.Errorf("only %d events", len(evs))
	}
	for i := range evs {
		ev := &evs[i]
		if ev.Seq != int64(i+1) {
			return fmt.Errorf("event %d has seq %d", i, ev.Seq)
		}
		if i > 0 && ev.T < evs[i-1].T {
			return fmt.Errorf("seq %d: t goes back", ev.Seq)
		}
		if err := event.Validate(ev); err != nil {
			return fmt.Errorf("seq %d: %v", ev.Seq, err)
		}
	}
	if evs[0].Kind != event.KindTurnStart || evs[0].Role != event.RoleAssistant {
		return fmt.Errorf("first event %+v", evs[0])
	}
	if evs[1].Kind != event.KindText || evs[1].Text != "Checking." {
		return fmt.Errorf("second event %+v", evs[1])
	}
	if last := evs[len(evs)-1]; last.Kind != event.KindTurnEnd {
		return fmt.Errorf("last event is %s", last.Kind)
	}
	return nil
}

// exhaustiveCheck follows the tools of one trace.
type exhaustiveCheck struct {
	opts      sim.ExhaustiveOptions
	stage     []int // events seen per tool
	cancelled bool
	inflight  int // tools started but not finished at the cancel
	late      int // results after the cancel
}

func (c *exhaustiveCheck) event(ev *event.Event) error {
	switch ev.Kind {
	case event.KindCancel:
		switch {
		case !c.opts.Cancel:
			return fmt.Errorf("cancel without Cancel")
		case c.cancelled:
			return fmt.Errorf("second cancel")
		case c.stage[0] == 0:
			return fmt.Errorf("cancel before any tool started")
		case ev.Reason != "user pressed Esc":
			return fmt.Errorf("cancel reason %q", ev.Reason)
		}
		c.cancelled = true
		for _, st := range c.stage {
			if st > 0 && st < c.opts.Progress+2 {
				c.inflight++
			}
		}
		return nil
	case event.KindToolStart, event.KindToolProgress, event.KindToolDone:
		var i int
		if _, err := fmt.Sscanf(ev.ID, "t%d", &i); err != nil || i < 1 || i > c.opts.Tools {
			return fmt.Errorf("bad tool id %q", ev.ID)
		}
		return c.step(i-1, ev)
	}
	return fmt.Errorf("unexpected %s in the batch", ev.Kind)
}

// step checks the next event of tool i: the one its stage calls for, or
// after the cancel a late result of a tool in flight.
func (c *exhaustiveCheck) step(i int, ev *event.Event) error {
	m := c.opts.Progress + 2
	st := c.stage[i]
	switch {
	case st == m:
		return fmt.Errorf("%s of %s after its result", ev.Kind, ev.ID)
	case c.cancelled && (ev.Kind != event.KindToolDone || st == 0):
		return fmt.Errorf("%s of %s after the cancel", ev.Kind, ev.ID)
	case c.cancelled:
		c.late++
		st = m - 1
	case st == 0 && i > 0 && c.stage[i-1] == 0:
		return fmt.Errorf("%s starts before t%d", ev.ID, i)
	}
	want := exhaustiveEvent(c.opts, i, st)
	want.Seq, want.T = ev.Seq, ev.T
	if !reflect.DeepEqual(*ev, want) {
		return fmt.Errorf("got %+v, want %+v", *ev, want)
	}
	c.stage[i] = st + 1
	return nil
}

func (c *exhaustiveCheck) end() error {
	if !c.opts.Cancel {
		for i, st := range c.stage {
			if st != c.opts.Progress+2 {
				return fmt.Errorf("t%d saw %d events", i+1, st)
			}
		}
		return nil
	}
	if !c.cancelled {
		return fmt.Errorf("no cancel")
	}
	if c.late != 0 && c.late != c.inflight {
		return fmt.Errorf("%d late results for %d tools in flight", c.late, c.inflight)
	}
	return nil
}

// exhaustiveEvent returns the st-th event of tool i (0-based), seq and t unset.
func exhaustiveEvent(opts sim.ExhaustiveOptions, i, st int) event.Event {
	id := fmt.Sprintf("t%d", i+1)
	switch {
	case st == 0:
		ev := event.Event{Kind: event.KindToolStart, ID: id, Name: []string{"grep", "read", "bash", "glob"}[i%4],
			Args: json.RawMessage(fmt.Sprintf(`{"path":"src/%c.go"}`, 'a'+i))}
		if opts.BatchIDs {
			ev.Batch = "msg_1"
		}
		return ev
	case st <= opts.Progress:
		return event.Event{Kind: event.KindToolProgress, ID: id, Output: fmt.Sprintf("chunk %d\n", st)}
	case i == 1:
		return event.Event{Kind: event.KindToolDone, ID: id, Error: "exit status 1"}
	}
	return event.Event{Kind: event.KindToolDone, ID: id, OK: true, Output: "done\n"}
}

// TestExhaustiveBothBatchModes: each trace comes twice, first without
// batch ids and then with them on every start, and nothing else differs;
// the count doubles.
func TestExhaustiveBothBatchModes(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true, BothBatchModes: true}
	single := opts
	single.BothBatchModes = false
	want, _ := sim.ExhaustiveCount(single)
	if got, err := sim.ExhaustiveCount(opts); err != nil || got != 2*want {
		t.Fatalf("ExhaustiveCount = %d, %v; want %d", got, err, 2*want)
	}
	var prev []event.Event
	n := 0
	err := sim.Exhaustive(opts, func(evs []event.Event) bool {
		batched := n%2 == 1
		for _, ev := range evs {
			if ev.Kind == event.KindToolStart && (ev.Batch != "") != batched {
				t.Fatalf("trace %d: start %s has batch %q, want batch ids %t", n, ev.ID, ev.Batch, batched)
			}
		}
		if batched {
			for i := range evs {
				ev := evs[i]
				ev.Batch = ""
				if !reflect.DeepEqual(ev, prev[i]) || len(evs) != len(prev) {
					t.Fatalf("trace %d: differs from its twin beyond the batch id at %d", n, i)
				}
			}
		}
		prev = append(prev[:0], evs...)
		n++
		return true
	})
	if err != nil || n != 2*want {
		t.Fatalf("yielded %d traces (err %v), want %d", n, err, 2*want)
	}
}
