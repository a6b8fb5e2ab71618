package harness_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// BenchmarkCampaign: scenarios/s with every oracle, reconstruction
// included, on two workers (the machine's cores).
func BenchmarkCampaign(b *testing.B) {
	const seeds = 500
	total := 0
	for b.Loop() {
		camp := campaign.Campaign{Seeds: seeds, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}, Check: harness.Options{SelfCheck: true}}
		rep, err := camp.Run(reference)
		if err != nil || rep.Failure != nil {
			b.Fatalf("campaign failed: %v %v", err, rep.Failure)
		}
		total += rep.Scenarios
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "scenarios/s")
}

// BenchmarkCampaignWorkers: the same campaign on one worker and on two
// (issue 19's scaling figure): compare the scenarios/s of the two.
func BenchmarkCampaignWorkers(b *testing.B) {
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			total := 0
			for b.Loop() {
				camp := campaign.Campaign{Seeds: 2000, Workers: w, Sim: sim.Options{Faults: fault.All(), Swarm: true}, Check: harness.Options{SelfCheck: true}}
				rep, err := camp.Run(reference)
				if err != nil || rep.Failure != nil {
					b.Fatalf("campaign failed: %v %v", err, rep.Failure)
				}
				total += rep.Scenarios
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "scenarios/s")
		})
	}
}

// BenchmarkExhaustive4: every ordering of a 4-tool batch with one progress
// each and every cancel point, every oracle.
func BenchmarkExhaustive4(b *testing.B) {
	for b.Loop() {
		rep, err := campaign.RunExhaustive(reference, sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}, campaign.Campaign{Workers: 2, Check: harness.Options{SelfCheck: true}})
		if err != nil || rep.Failure != nil {
			b.Fatalf("exhaustive failed: %v %v", err, rep.Failure)
		}
		b.ReportMetric(float64(rep.Scenarios), "traces")
	}
}

// spinnerTrace is the 1,006-event trace the shrink benchmarks shrink, and
// the planted spinner bug's violations on it.
func spinnerTrace(b *testing.B) ([]event.Event, []harness.Violation) {
	evs := sim.Synthetic(6, sim.SyntheticOptions{Events: 1000, MaxBatch: 4, CancelEvery: 25})
	found := harness.CheckWith(planted.CancelLeavesSpinner, evs, harness.Options{First: true})
	if len(found) == 0 {
		b.Fatal("the planted bug does not fire on this trace")
	}
	return evs, found
}

// BenchmarkShrink1000: shrink a 1,006-event failing trace through the real
// oracles. The planted bug (a cancel leaves a spinner) first fires at
// seq 601, the trace's first cancel.
func BenchmarkShrink1000(b *testing.B) {
	evs, found := spinnerTrace(b)
	c := &harness.Case{Events: evs}
	var shrunk *harness.Case
	for b.Loop() {
		shrunk = campaign.ShrinkCase(planted.CancelLeavesSpinner, c, found[0].Oracle, harness.Options{}).Case
	}
	if len(shrunk.Events) > 10 {
		b.Fatalf("shrunk %d → %d events, want ≤ 10", len(evs), len(shrunk.Events))
	}
	b.ReportMetric(float64(len(evs)), "events-in")
	b.ReportMetric(float64(len(shrunk.Events)), "events-out")
	b.ReportMetric(float64(found[0].Seq), "first-failing-seq")
}

// BenchmarkShrinkFinding: shrink a finding keeping its signature inside
// the domain of every fault, the same 1,006-event trace and planted bug as
// BenchmarkShrink1000; candidates tried and rejected for drift reported.
func BenchmarkShrinkFinding(b *testing.B) {
	evs, found := spinnerTrace(b)
	c := &harness.Case{Events: evs}
	var res campaign.Shrunk
	for b.Loop() {
		res = campaign.ShrinkFinding(planted.CancelLeavesSpinner, c, found[0], campaign.Domain{Faults: fault.All()}, harness.Options{})
	}
	if len(res.Case.Events) > 10 || res.By.Signature != found[0].Signature {
		b.Fatalf("shrunk %d → %d events failing with %q, want ≤ 10 with %q", len(evs), len(res.Case.Events), res.By.Signature, found[0].Signature)
	}
	b.ReportMetric(float64(len(res.Case.Events)), "events-out")
	b.ReportMetric(float64(res.Tests), "candidates")
	b.ReportMetric(float64(res.Rejected), "rejected")
}

// BenchmarkCampaignExternal: campaign scenarios/s with the reference engine
// in another process, over the protocol (batch mode), every oracle.
func BenchmarkCampaignExternal(b *testing.B) {
	b.Setenv(engineEnv, "reference")
	x := harness.External(os.Args[0])
	defer x.Close()
	total := 0
	for b.Loop() {
		rep, err := campaign.Campaign{Seeds: 100, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}}.Run(x.New)
		if err != nil || rep.Failure != nil {
			b.Fatalf("campaign failed: %v %v", err, rep.Failure)
		}
		total += rep.Scenarios
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "scenarios/s")
}

// turnEvents is how many events one turn of longTrace holds.
const turnEvents = 9

// longEvent is event k of turn `turn` of a realistic long session: one
// text and a batch of three calls that finish in reverse order, each with
// an output.
func longEvent(turn, k int) event.Event {
	switch {
	case k == 0:
		return event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	case k == 1:
		return event.Event{Kind: event.KindText, Text: fmt.Sprintf("Working on step %d.", turn)}
	case k <= 4:
		return event.Event{Kind: event.KindToolStart, ID: fmt.Sprintf("t%d_%d", turn, k-2), Name: "grep", Args: json.RawMessage(`{"pattern":"TODO"}`)}
	case k <= 7:
		return event.Event{Kind: event.KindToolDone, ID: fmt.Sprintf("t%d_%d", turn, 7-k), OK: true, Output: "3 matches\n"}
	}
	return event.Event{Kind: event.KindTurnEnd}
}

// longTrace is longSource's trace in memory: n events or a few more.
func longTrace(n int) []event.Event {
	var evs []event.Event
	src := &longSource{n: n}
	for {
		var ev event.Event
		if src.Next(&ev) != nil {
			return evs
		}
		evs = append(evs, ev)
	}
}

// BenchmarkCheckLong checks long realistic traces with every per-event
// and whole-trace oracle, as `toolsim check` does on a trace toolsim did
// not generate (toolsim's own log round trip is left to SelfCheck), and
// reports the time per event: linear checking keeps it flat from 10k to 1M
// events. The trace is generated as it is read (CheckSource), three times,
// so memory follows the timeline, not the trace.
func BenchmarkCheckLong(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			open := func() (harness.Source, error) { return &longSource{n: n}, nil }
			for b.Loop() {
				found, err := harness.CheckSource(reference, open, harness.Options{})
				if err != nil || len(found) > 0 {
					b.Fatalf("check: %v %v", err, found)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
		})
	}
}

// BenchmarkReplayLong is the replay of the same traces through the
// reference engine alone: the yardstick for BenchmarkCheckLong.
func BenchmarkReplayLong(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			evs := longTrace(n)
			for b.Loop() {
				e := engine.New(engine.Options{})
				for i := range evs {
					e.Apply(&evs[i])
				}
				e.Finish()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
		})
	}
}
