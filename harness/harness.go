package harness

import (
	"fmt"
	"io"
	"slices"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/oracle"
	"github.com/toolsim/toolsim/timeline"
)

// Engine is what the harness drives: it applies events in trace order
// (Apply), applies the end-of-stream rule (Finish), and exposes its current
// timeline (Timeline). It is the same interface an engine served over the
// protocol implements (engineproto.Engine).
//
// Optional methods the harness uses when present: Close() error (release
// a process), Err() error (an engine failure, reported as OracleEngine),
// Replay (a batch mode: Replay(evs []event.Event, finish bool) ([]*timeline.Timeline, error)), ChangedItems() ([]*timeline.Item, bool) (which
// top-level items changed since the previous call, so that each event is
// checked in time proportional to what it changed), and Reconstruct(log
// []byte) (*timeline.Timeline, error) (the engine's own reload, checked
// with Options.Reload), and CopiesEvents() bool: true when the engine
// copies whatever it keeps of an event, so that the pointer Apply was
// given is not used once Apply returns. An engine may keep that pointer
// otherwise, and each event read from a stream (CheckSource) gets a fresh
// value; with CopiesEvents, every replay reads into values it reuses.
type Engine = engineproto.Engine

// Oracle names, after SPEC §5.
const (
	OraclePairing       = oracle.Pairing       // §5.1: an event for id X changes only tool X
	OracleStatus        = oracle.Status        // §5.2: terminal states never change; only allowed moves
	OracleGroups        = oracle.Groups        // §5.3: groups are exactly the batches; a group holds 2+ tools
	OracleOnce          = oracle.Once          // §5.4: every started tool appears exactly once
	OracleNoLive        = oracle.NoLive        // §5.5: after turn_end or cancel, no tool is live
	OracleScreenOnce    = oracle.ScreenOnce    // screen: each started call is on the page exactly once
	OracleScreenSettled = oracle.ScreenSettled // screen: after the turn nothing runs or asks, unless it awaits approval
	OracleScreenFailure = oracle.ScreenFailure // screen: a failed call never looks like a success
	OracleOrder         = oracle.Order         // §5.6: the final timeline does not depend on result order
	OracleDeterminism   = oracle.Determinism   // §5.8: the same trace gives the same timeline
	OracleIncremental   = oracle.Incremental   // §5.9: incremental render equals a fresh render
	OracleModel         = oracle.Model         // the right tool is in the wrong state (status, output, progress, error, times)
	OracleDiagnostics   = oracle.Diagnostics   // the anomalies reported are not the ones the trace holds
	OraclePanic         = oracle.Panic         // §5.10: the engine panicked
	OracleEngine        = oracle.Engine        // §5.10: an external engine crashed, hung or broke the protocol
	OracleReference     = oracle.Reference     // --diff: the engine differs from the reference engine
	OracleReload        = oracle.Reload        // the engine's own reconstruction differs from what it showed live
	OracleCrash         = oracle.Crash         // killed and resumed mid-turn, the engine shows a call finished or running

	OracleNondeterminism = oracle.Nondeterminism // §5.8: a campaign's seed gave different bytes twice

	// toolsim's own reconstruction checks (SPEC §4, §5.7), run with
	// Options.SelfCheck.
	OracleRebuild   = oracle.Rebuild   // (a) the rebuilt transcript equals the live one
	OracleReconnect = oracle.Reconnect // (b) rebuild a prefix, go on live: same as pure live
	OracleIdempot   = oracle.Idempot   // (c) replaying a log twice changes nothing
	OracleReported  = oracle.Reported  // an unrecoverable log must report a problem
)

// Oracles lists every oracle name a violation can carry.
var Oracles = slices.Clone(oracle.Names)

// Violation is one failed oracle: the event after which it failed, which
// oracle, what was seen, and where it applies a (-want +got) diff of the
// tool outline (want is the harness's model).
//
// Signature names what went wrong independently of seed, ids, names, times
// and trace length ("result after cancel: tool status interrupted → ok";
// see Sign): campaigns count failures by it, and a finding's shrink keeps
// only candidates that fail with it. Check and CheckCase fill it.
type Violation struct {
	Seq       int64
	Oracle    string
	Detail    string
	Diff      string
	Signature string

	end bool // found after Finish, at the end of the stream
	// subjects are the differences the oracle saw at this event, each with
	// its WHAT: the first is the signature's WHAT half, and a campaign
	// looks at every one for the bugs the first masks (see expand). An
	// oracle that records none is signed by a shape of its detail.
	subjects []subject
	rule     string // the RULE half, set by Sign
}

// subject is one difference a violation saw: the row (a tool id, an
// item's place, or for a difference of no one row the oracle's name) and
// what differs in it.
type subject struct{ key, what string }

// about is the one subject of a violation: key and what.
func about(key, what string) []subject { return []subject{{key, what}} }

// String formats the violation as "after seq N: oracle: detail", followed
// by the diff when there is one.
func (v Violation) String() string {
	s := fmt.Sprintf("after seq %d: %s: %s", v.Seq, v.Oracle, v.Detail)
	if v.Diff != "" {
		s += "\n(-want +got):\n" + v.Diff
	}
	return s
}

// StreamOracle reports whether oracle is judged only while a trace
// streams through the engine, or at its end (Finish): a check with
// Options.StreamOnly finds every violation of such an oracle that a full
// check finds. The others run the engine again (determinism, order
// independence, reload, toolsim's log round trip), or can fail in any run
// (a panic, an engine that crashed or hung, toolsim's own fault).
func StreamOracle(oracle string) bool {
	switch oracle {
	case OracleOrder, OracleDeterminism, OracleNondeterminism, OracleReload, OracleRebuild, OracleReconnect,
		OracleIdempot, OracleReported, OraclePanic, OracleEngine, OracleToolsim, OracleCrash:
		return false
	}
	return true
}

// Check replays evs through a fresh engine from newEngine, checking every
// oracle after every event and after Finish, and then replays them through
// a second fresh engine to check determinism. It returns every violation.
func Check(newEngine func() Engine, evs []event.Event) []Violation {
	return CheckWith(newEngine, evs, Options{})
}

// CheckWith is Check with options. A panicking engine is reported as an
// OraclePanic violation at the event that made it panic; an engine that
// reports a failure through an Err() error method (an external engine that
// crashed, hung or misbehaved) as an OracleEngine violation.
func CheckWith(newEngine func() Engine, evs []event.Event, opts Options) []Violation {
	found, _ := checkWith(newEngine, evs, opts)
	Sign(evs, found, opts)
	return found
}

// CheckSource checks a trace too long to hold in memory. open returns a
// fresh stream of the trace's events each time it is called; the check
// reads it three times (the per-event oracles, determinism, order
// independence) and holds only timelines, never the events, unless the
// engine takes whole traces at once (a batch mode). The engine's own reload
// and toolsim's log round trip need the whole trace: use CheckCase for
// those. A failure to open or read the trace is returned as the error,
// with the violations found before it.
func CheckSource(newEngine func() Engine, open func() (Source, error), opts Options) ([]Violation, error) {
	found, err := checkSource(newEngine, open, opts)
	if len(found) > 0 {
		if src, err := open(); err == nil {
			signSource(src, found, opts)
		}
	}
	return found, err
}

func checkSource(newEngine func() Engine, open func() (Source, error), opts Options) ([]Violation, error) {
	src, err := open()
	if err != nil {
		return nil, err
	}
	found, final, last, err := checkStream(newEngine, src, opts)
	if err != nil {
		return found, fmt.Errorf("reading the trace: %w", err)
	}
	if final == nil || enough(opts, found) || opts.StreamOnly {
		return found, nil
	}
	reopen := func() Source {
		src, err := open()
		if err != nil {
			return failing{err}
		}
		return src
	}
	d, err := determinism(newEngine, reopen(), final, last)
	if found = append(found, d...); err != nil || enough(opts, found) {
		return found, err
	}
	o, err := orderOracle(newEngine, reopen, final, last, opts)
	return append(found, o...), err
}

// checkWith is CheckWith that also returns the final timeline (after the
// end-of-stream rule), or nil when the check stopped before it.
func checkWith(newEngine func() Engine, evs []event.Event, opts Options) (found []Violation, final *timeline.Timeline) {
	found, final, _, _ = checkStream(newEngine, SliceSource(evs), opts)
	if final == nil || enough(opts, found) || opts.StreamOnly {
		return found, final
	}
	d, _ := determinism(newEngine, SliceSource(evs), final, lastSeq(evs))
	return append(found, d...), final
}

// enough reports whether a check has found enough to stop: the first
// violation with Options.First, else maxViolations.
func enough(opts Options, found []Violation) bool {
	return len(found) >= maxViolations || (opts.First && len(found) > 0)
}

// checkStream runs the per-event oracles over a stream of events, then
// Finish. It returns the violations, the final timeline (nil when the
// check stopped before it), the seq of the last event, and an error when
// the stream could not be read. Determinism is left to the caller, who can
// read the trace again.
func checkStream(newEngine func() Engine, src Source, opts Options) (found []Violation, final *timeline.Timeline, last int64, err error) {
	p := newPass(opts)
	var cur int64
	defer func() {
		if r := recover(); r != nil {
			found, final = append(p.found, Violation{Seq: cur, Oracle: OraclePanic, Detail: fmt.Sprint(r)}), nil
		}
	}()
	eng := newEngine()
	defer closeEngine(eng)
	if opts.Reference != nil {
		p.ref = opts.Reference()
		defer closeEngine(p.ref)
	}
	if p.d, src, err = newDriver(eng, src, opts.Snapshots); err != nil {
		return nil, nil, 0, err
	}
	p.eng = eng
	rd := newReader(src, copiesEvents(eng, p.ref))
	for {
		ev, err := rd.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.found, nil, cur, err
		}
		cur = ev.Seq
		tl, ok := p.d.apply(ev)
		if !ok {
			p.engineFailed(ev, p.d.err)
			return p.found, nil, cur, nil
		}
		if p.opts.Coverage != nil {
			p.model.States(ev, p.count)
		}
		p.model.Apply(ev)
		p.observe(ev, tl, false)
		p.checkSnapshot(ev, tl)
		if p.stopped() {
			return p.found, nil, cur, nil
		}
	}
	if !p.finish() {
		return p.found, nil, cur, nil
	}
	return p.found, p.d.last, cur, nil
}

// finish applies the end-of-stream rule and checks the result. It reports
// false when the engine failed.
func (p *pass) finish() bool {
	end := &event.Event{Seq: p.model.LastSeq(), Kind: endOfStream}
	p.atEnd = true
	tl, ok := p.d.apply(nil)
	if !ok {
		p.engineFailed(end, p.d.err)
		return false
	}
	if p.opts.Coverage != nil {
		p.model.FinishStates(p.count)
	}
	p.model.Finish()
	if p.ref != nil {
		p.ref.Finish()
	}
	p.observe(end, tl, true)
	p.checkSnapshot(end, tl)
	return true
}

// count adds one reached state or rule to Options.Coverage.
func (p *pass) count(state string) { p.opts.Coverage[state]++ }

// engineFailed reports an engine's own failure at an event.
func (p *pass) engineFailed(ev *event.Event, err error) {
	p.fail(failedWith(ev.Seq, fmt.Sprintf("at %s: ", describe(ev)), err))
}

// endOfStream is the pseudo-kind of the check after Finish.
const endOfStream event.Kind = "end_of_stream"

func lastSeq(evs []event.Event) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}

// determinism replays the trace through a second engine and compares the
// final timelines. last is the seq of the trace's last event.
func determinism(newEngine func() Engine, src Source, first *timeline.Timeline, last int64) ([]Violation, error) {
	again, err := finalTimeline(newEngine, src)
	if ie, ok := asInput(err); ok {
		return nil, ie
	}
	if err != nil {
		return []Violation{failedWith(last, fmt.Sprintf("at %s: ", describe(&event.Event{Seq: last, Kind: "replay"})), err)}, nil
	}
	if !selfcheck.Equal(first, again) {
		return []Violation{{Seq: last, Oracle: OracleDeterminism,
			Detail: "a second replay gave a different timeline (-first +second)", Diff: selfcheck.Diff(first, again)}}, nil
	}
	return nil, nil
}

// describe names an event for messages: "tool_done id=t1 (seq 7)".
func describe(ev *event.Event) string {
	if ev.Kind == endOfStream {
		return "the end of the stream"
	}
	if ev.ID != "" || toolEvent(ev.Kind) || ev.Kind == event.KindToolStart {
		return fmt.Sprintf("%s id=%q (seq %d)", ev.Kind, ev.ID, ev.Seq)
	}
	return fmt.Sprintf("%s (seq %d)", ev.Kind, ev.Seq)
}

func toolEvent(k event.Kind) bool {
	return k == event.KindToolProgress || k == event.KindToolDone || k == event.KindPermission
}
