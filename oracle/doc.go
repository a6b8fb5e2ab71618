// Package oracle names toolsim's oracles (SPEC §5) and holds the rules the
// step-local ones apply to one tool or one item: which status moves are
// allowed, how few tools a group may hold, what a tool still live at the
// end of a turn is reported as.
//
// Two checkers apply these rules, and they differ only in how they find
// what an event changed: the harness pairs each engine item with its
// model's outline, and the player (package tui) diffs the engine's
// timeline with the one before the event, since it seeks through a trace
// from checkpoints and keeps no model. Both report the same oracle names,
// and the same words for a status, group or live-after-turn fault; the
// player's once check, an account of rows, words its own.
//
// The package imports only event and timeline, so that an engine, a
// player or a test of its own can use the rules without the harness.
package oracle
