package oracle

// Oracle names, after SPEC §5. The harness exports each under its own name
// (harness.OracleStatus is Status, ...).
const (
	Pairing     = "pairing"     // §5.1: an event for id X changes only tool X
	Status      = "status"      // §5.2: terminal states never change; only allowed moves
	Groups      = "groups"      // §5.3: groups are exactly the batches; a group holds 2+ tools
	Once        = "once"        // §5.4: every started tool appears exactly once
	NoLive      = "no-live"     // §5.5: after turn_end or cancel, no tool is live
	Order       = "order"       // §5.6: the final timeline does not depend on result order
	Determinism = "determinism" // §5.8: the same trace gives the same timeline
	Incremental = "incremental" // §5.9: incremental render equals a fresh render
	Model       = "model"       // the right tool is in the wrong state (status, output, progress, error, times)
	Diagnostics = "diagnostics" // the anomalies reported are not the ones the trace holds
	Panic       = "panic"       // §5.10: the engine panicked
	Engine      = "engine"      // §5.10: an external engine crashed, hung or broke the protocol
	Reference   = "reference"   // --diff: the engine differs from the reference engine
	Reload      = "reload"      // the engine's own reconstruction differs from what it showed live

	Nondeterminism = "nondeterminism" // §5.8: a campaign's seed gave different bytes twice

	// The screen oracles, for engines whose timelines are read from a
	// rendered page (the screen capability): they need no model.
	ScreenOnce    = "screen-once"    // each started call is on the page exactly once
	ScreenSettled = "screen-settled" // after the turn, nothing runs or asks unless it awaits approval
	ScreenFailure = "screen-failure" // a failed call never looks like a success

	// Crash is the crash fault's oracle, for engines that can be killed
	// and resumed (the crash capability): after the crash no call shows
	// finished that did not finish, none shows running, and none is gone.
	Crash = "crash"

	// toolsim's own reconstruction checks (SPEC §4, §5.7).
	Rebuild   = "live==rebuilt"  // (a) the rebuilt transcript equals the live one
	Reconnect = "reconnect"      // (b) rebuild a prefix, go on live: same as pure live
	Idempot   = "replay-twice"   // (c) replaying a log twice changes nothing
	Reported  = "reported-fault" // an unrecoverable log must report a problem
)

// Names lists every oracle name a violation can carry, in the order
// reports list them (campaign.Report.Skipped, shrink's --oracle).
var Names = []string{
	Pairing, Status, Groups, Once, NoLive, Order,
	Determinism, Incremental, Model, Diagnostics, Panic,
	Engine, Reference, Reload, Rebuild, Reconnect, Idempot,
	Reported, Nondeterminism, ScreenOnce, ScreenSettled, ScreenFailure, Crash,
}

// WholeTrace names the oracles that judge a whole trace rather than an
// event, each with the RULE half of the signatures of its findings
// (docs/findings.md): the phrase that stands where an event's rule would.
var WholeTrace = map[string]string{
	Order:          "results in another order",
	Determinism:    "the same trace replayed",
	Reload:         "the engine's own reload",
	Rebuild:        "toolsim's rebuild of the log",
	Reported:       "an unrecoverable log",
	Idempot:        "the log replayed twice",
	Reconnect:      "rebuild a prefix, then live",
	Nondeterminism: "the same seed twice",
	Crash:          "a crash mid-turn, then resume",
}
