//go:build plantedbug

package chatui

// plantedBug makes EndTurn forget to stop the calls still running: a
// mistake toolsim's no-live oracle (SPEC §5.5) catches. Build with
// -tags plantedbug to see the failure a user gets.
const plantedBug = true
