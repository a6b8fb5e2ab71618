package harness

import (
	"slices"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/sim"
)

// Options say what is checked and what the engine under test supports.
// One value travels unchanged through every entry point — Check,
// CheckCase, Campaign, Fuzz, ShrinkCase, RunExhaustive, harnesstest's
// ReplayDir and the CLI — so a shrink or a saved regression is judged
// exactly as the check that found the failure. The zero value checks
// everything the reference engine does, except toolsim's own persisted-log
// round trip (SelfCheck).
type Options struct {
	// MetaTools names the meta tools the model expects to stand alone; nil
	// means the default set of SPEC §2.
	MetaTools []string
	// Fields lists the optional timeline fields the engine fills
	// (engineproto.AllFields names them); nil means all. The others are
	// left out of every comparison.
	Fields []string
	// Features lists the parts of SPEC §2 the engine supports; nil means
	// all. Campaigns generate only those, and expect only the faults that
	// can land with them.
	Features sim.FeatureList
	// NoGrouping is for engines that show every call on its own row: no
	// groups are expected, meta tools count as ordinary tools, and every
	// other oracle still runs.
	NoGrouping bool
	// NoRender skips the incremental render oracle (§5.9): for engines that
	// do not render incrementally with toolsim's renderer (timelines
	// decoded from another process carry no versions).
	NoRender bool
	// Reload checks the engine's own reconstruction (an engine with a
	// Reconstruct method, such as an external engine that declares
	// reconstruct): the persisted log of each case is rebuilt by the engine
	// and compared with the live timeline.
	Reload bool
	// Crash runs the crash oracle on cases with a crash point (the crash
	// fault): for engines that can be killed mid-turn and resumed (an
	// external engine that declares crash, which Declared turns on).
	Crash bool
	// Snapshots compares an external engine's whole timeline (the snapshot
	// capability, with delta) with the one its deltas built, after the
	// 1,024th event, at points as far apart as the timeline is long (at
	// least 1,024 events) and at the end: an item the engine changed in
	// place under the same version, which no delta carried, is reported as
	// an OracleEngine violation at the first of those points that shows it.
	Snapshots bool
	// Screen adds the screen oracles (OracleScreenOnce, OracleScreenSettled,
	// OracleScreenFailure), which judge the timeline as a page shows it
	// without the model: for engines that declare the screen capability
	// (toolsim-browser), which Declared turns on.
	Screen bool
	// ToolRows is for engines whose timelines hold tool rows only (the
	// tool-rows capability: a real agent app's screen reader reads the
	// calls, not the text around them): the model shows no text,
	// thinking, user, notice, separator or compaction items, so every
	// oracle compares the calls alone. Declared turns it on.
	ToolRows bool
	// SelfCheck runs the oracles that exercise toolsim's own persisted-log
	// writer and rebuild (§5.7 live == rebuilt, reported faults, reconnect,
	// replay twice), whatever engine is under test: for toolsim's own
	// tests and campaigns.
	SelfCheck bool
	// Reference, when set, runs a second engine in lock step and reports
	// every difference from it (OracleReference), in the declared fields.
	Reference func() Engine
	// First stops at the first violation (shrink candidates: a campaign
	// checks each seed in full, to read every signature it shows).
	First bool
	// StreamOnly runs only the oracles judged while the trace streams
	// and at its end (Finish): not determinism, order independence, the
	// engine's reload or toolsim's log round trip, each of which runs the
	// engine again. A shrinker after a violation of a per-event oracle
	// needs no more (StreamOracle).
	StreamOnly bool
	// Contract is what the engine's real upstream guarantees never to send
	// and the library's documented behaviours (package contract). A
	// campaign generates and shrinks inside it; a finding whose repro is
	// outside it is labelled robustness (Finding.Robustness), and one that
	// shows a documented behaviour is set apart (Finding.Documented). The
	// zero value declares nothing: everything is checked as before.
	Contract contract.Contract

	// Coverage, when set, counts the states and rules of the rule
	// inventory (docs/simulator.md) as the check's model meets them, so
	// that a campaign does not run the model a second time.
	Coverage map[string]int
}

// Declared returns o adjusted to what an external engine declared at init:
// its fields, whether it groups, the features it supports, whether it
// reloads (reconstruct), whether it sends its whole timeline on request
// (snapshot: Snapshots), and its contract (unless o already has one). The
// incremental render oracle is off: decoded timelines are not rendered
// incrementally by the engine.
func Declared(o Options, info engineproto.Info) Options {
	o.Fields = slices.Clone(info.Fields)
	if o.Fields == nil {
		o.Fields = []string{}
	}
	o.NoRender = true
	o.Reload = o.Reload || info.Has(engineproto.CapReconstruct)
	o.Snapshots = o.Snapshots || info.Has(engineproto.CapSnapshot)
	o.Crash = o.Crash || info.Has(engineproto.CapCrash)
	o.Screen = o.Screen || info.Has(engineproto.CapScreen)
	o.ToolRows = o.ToolRows || info.Has(engineproto.CapToolRows)
	o.NoGrouping = o.NoGrouping || !info.Grouping
	if info.Features != nil {
		o.Features = intersect(o.Features, info.Features)
	}
	if !o.Contract.Declared() {
		o.Contract = info.Contract // a contract the caller set wins
	}
	return o
}

// intersect keeps the features of want (nil: every feature) that the
// engine declared.
func intersect(want sim.FeatureList, have []string) sim.FeatureList {
	if want == nil {
		want = sim.AllFeatures
	}
	out := sim.FeatureList{}
	for _, f := range want {
		if f == sim.FeatureTools || slices.Contains(have, string(f)) {
			out = append(out, f)
		}
	}
	return out
}

// metaTools is o.MetaTools or the default set.
func (o Options) metaTools() []string { return model.MetaTools(o.MetaTools) }

// Skip is an oracle a check leaves out, and why.
type Skip struct {
	Oracle string
	Why    string
}

// Reasons an oracle is left out, as Skipped gives them.
const (
	whyNoRender  = "the engine does not render with toolsim's incremental renderer (Options.NoRender, set for engines over the protocol, whose timelines are decoded)"
	whyNoRef     = "no second engine to compare with (Options.Reference, or toolsim fuzz --engine CMD --diff)"
	whyNoReload  = "the engine declares no reconstruct of its own (Options.Reload)"
	whyNoCrash   = "the engine declares no crash capability (Options.Crash; toolsim-agent --resume does)"
	whyNoRebuild = "toolsim's own log round trip, checked on toolsim's reference engine (Options.SelfCheck)"
)

// Skipped lists the oracles o leaves out, in the order of Oracles, each
// with why. The per-event oracles, order and determinism always run; the
// nondeterminism sample is a campaign's (Campaign.Recheck), and
// Report.Skipped says when a campaign left it out.
func (o Options) Skipped() []Skip {
	var out []Skip
	if o.NoRender {
		out = append(out, Skip{OracleIncremental, whyNoRender})
	}
	if o.Reference == nil {
		out = append(out, Skip{OracleReference, whyNoRef})
	}
	if !o.Reload {
		out = append(out, Skip{OracleReload, whyNoReload})
	}
	if !o.SelfCheck {
		for _, n := range []string{OracleRebuild, OracleReconnect, OracleIdempot, OracleReported} {
			out = append(out, Skip{n, whyNoRebuild})
		}
	}
	if !o.Crash {
		out = append(out, Skip{OracleCrash, whyNoCrash})
	}
	return out
}

// NotRun describes skips a line per reason: "ORACLE, ...: why", the
// oracles left out for the same reason together, in the order given.
func NotRun(skips []Skip) []string {
	var out []string
	for i := 0; i < len(skips); {
		j := i + 1
		names := skips[i].Oracle
		for ; j < len(skips) && skips[j].Why == skips[i].Why; j++ {
			names += ", " + skips[j].Oracle
		}
		out = append(out, names+": "+skips[i].Why)
		i = j
	}
	return out
}
