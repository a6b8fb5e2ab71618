package harness_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// reopenTrace is a tool that a cancel stops, a user message, and then
// texts up to n events: planted.SilentReopen shows the tool running again
// from the user message (seq 4) on, changed in place under its version.
func reopenTrace(n int) []event.Event {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: "assistant"},
		{Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "grep", Args: []byte(`{}`)},
		{Seq: 3, T: 5, Kind: event.KindCancel},
		{Seq: 4, T: 6, Kind: event.KindUser, Text: "go on"},
	}
	for len(evs) < n {
		k := int64(len(evs) + 1)
		evs = append(evs, event.Event{Seq: k, T: k, Kind: event.KindText, Text: "x"})
	}
	return evs
}

// externalOneByOne starts the named engine as a separate process that
// does not declare batch, so that it gets one event per message.
func externalOneByOne(t *testing.T, name string) *harness.ExternalEngine {
	t.Helper()
	t.Setenv(noBatchEnv, "1")
	return external(t, name)
}

// declared returns the options an engine's init_ok gives (as toolsim
// check --engine does).
func declared(t *testing.T, x *harness.ExternalEngine) harness.Options {
	t.Helper()
	info, err := x.Start()
	if err != nil {
		t.Fatal(err)
	}
	return harness.Declared(harness.Options{}, info)
}

// TestSnapshotCatchesStaleItems: an engine that changes an item in place
// under the same version, served with deltas, shows toolsim the item as
// it was; the snapshot at the end of the trace shows the difference, and
// the check reports it as an engine violation naming the item, the tool
// and the seq, with a (-deltas +snapshot) diff. Without snapshots the
// same engine passes over the protocol, though it fails in process.
func TestSnapshotCatchesStaleItems(t *testing.T) {
	evs := reopenTrace(4)
	if found := harness.CheckWith(planted.SilentReopen, evs, harness.Options{}); len(found) == 0 || found[0].Seq != 4 {
		t.Fatalf("in process, the planted bug is not caught at seq 4: %v", found)
	}
	x := external(t, "silent-reopen")
	opts := declared(t, x)
	if !opts.Snapshots {
		t.Fatal("Declared does not turn snapshots on for an engine that declares snapshot")
	}
	off := opts
	off.Snapshots = false
	if found := harness.CheckWith(x.New, evs, off); len(found) > 0 {
		t.Fatalf("without snapshots the stale item shows only by accident, want nothing: %v", found)
	}
	found := harness.CheckWith(x.New, evs, opts)
	const want = `after seq 4: engine: at the end of the stream: item 0 (tool "a") changed but no delta carried it: ` +
		`the engine's whole timeline (snapshot) differs from the one its deltas built (-deltas +snapshot)
(-want +got):
- tool a grep interrupted updates=0 end_t=5 duration=4 summary=""
+ tool a grep running updates=0 summary=""
`
	if len(found) != 1 || found[0].String() != want {
		t.Fatalf("got %d violations:\n%v\nwant one:\n%s", len(found), found, want)
	}
	if sig := found[0].Signature; sig != "end of stream: not carried by a delta: tool status interrupted → running" {
		t.Errorf("signature %q", sig)
	}
}

// TestSnapshotPoints: on a long trace the stale item is reported at the
// first snapshot point after it went stale (after the 1,024th event), not
// again at the end, and an engine that takes one event per message is
// asked at the same points as one that takes the trace in batches.
func TestSnapshotPoints(t *testing.T) {
	evs := reopenTrace(1500)
	var got []string
	for k, start := range []func(*testing.T, string) *harness.ExternalEngine{external, externalOneByOne} {
		x := start(t, "silent-reopen")
		info, err := x.Start()
		if err != nil || info.Has(engineproto.CapBatch) != (k == 0) {
			t.Fatalf("capabilities %v (%v)", info.Capabilities, err)
		}
		found := harness.CheckWith(x.New, evs, harness.Declared(harness.Options{}, info))
		if len(found) != 1 || found[0].Seq != 1024 || !strings.HasPrefix(found[0].Detail, `at text (seq 1024): item 0 (tool "a") changed but no delta carried it`) {
			t.Fatalf("want one violation after seq 1024, got %v", found)
		}
		got = append(got, found[0].String())
	}
	if got[0] != got[1] {
		t.Errorf("batch and one by one differ:\n%s\n%s", got[0], got[1])
	}
}

// TestSnapshotBugCaughtAndShrunk: a campaign with the options the engine
// declared catches the planted bug over the protocol and shrinks it under
// the same signature.
func TestSnapshotBugCaughtAndShrunk(t *testing.T) {
	x := external(t, "silent-reopen")
	camp := campaign.Campaign{Seeds: 1000, Workers: 2, StopAtFirst: true, Sim: sim.Options{Faults: fault.All(), Swarm: true}, Check: declared(t, x)}
	rep, err := camp.Run(x.New)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil || f.Shrunk == nil || len(f.Shrunk.Events) > 12 || f.ShrunkBy.Oracle != f.Violation.Oracle {
		t.Fatalf("not caught and shrunk: %+v", f)
	}
	t.Logf("seed %d: %s, shrunk %d → %d events", f.Seed, f.Violation.Signature, len(f.Case.Events), len(f.Shrunk.Events))
}
