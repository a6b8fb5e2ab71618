package executor

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Library is the adapter of one agent library: Run runs the library for one
// assistant turn, with turn's scripted model and gated tools, and records
// what its callbacks say into turn.UI. The kit calls Run on a goroutine of
// its own and cancels ctx when the trace says the user cancelled; Run
// returns when the library's run returns.
type Library interface {
	Run(ctx context.Context, turn *Turn) error
}

// PartKind says what a [Part] of a model answer is.
type PartKind int

// The kinds of part a scripted model answer streams.
const (
	PartText     PartKind = iota + 1 // a text delta (Part.Text)
	PartThinking                     // a reasoning delta (Part.Text)
	PartCall                         // a complete tool call (ID, Name, Args)
	PartEnd                          // the answer ends; Err set: the stream failed (the user cancelled)
)

// Part is one piece of a scripted model answer.
type Part struct {
	Kind PartKind
	Text string
	ID   string          // PartCall: the call id
	Name string          // PartCall: the tool name
	Args json.RawMessage // PartCall: the arguments, a JSON object
	Err  error           // PartEnd: why the stream failed, nil when the answer is complete
}

// Outcome is how a gated tool ends: Output when Err is nil, else Err:
// context.Canceled (the user cancelled), [ErrDenied] (permission denied)
// or an error carrying the trace's error text.
type Outcome struct {
	Output string
	Err    error
	// Asked (Config.PauseToAsk only): the trace asks the call's
	// permission; the tool returns to let the library pause the run and
	// ask, and the adapter waits for the answer with Turn.Answer.
	Asked bool
}

// ErrDenied is the error of a call whose permission the user denied. An
// adapter returns its library's own denial error wrapping it, so that the
// result the library reports still says so (errors.Is).
var ErrDenied = errors.New("permission denied")

// Config says how the library runs the calls of one model answer, which the
// kit must know to tell "waiting on toolsim" from "still working".
type Config struct {
	// Parallel is how many calls of a step the library runs at once
	// (fantasy: 5); 0 means all of them. The others wait for a slot, in call
	// order.
	Parallel int
	// AtStepEnd says the library reports a step's results only once every
	// call of the step returned; otherwise (the default) it reports each
	// result as its tool returns, and the adapter calls Turn.Reported.
	AtStepEnd bool
	// PauseToAsk says the library asks a call's permission by pausing
	// the run, once every other call of the step ended, rather than
	// inside the tool (ADK for Go's tool confirmation: the tool requests
	// it and returns, the run ends with the request, the app resumes it
	// with the answer, and a granted call's tool runs again). Tool then
	// returns Outcome{Asked: true} when the trace asks, and the adapter
	// waits for the answers with Turn.Answer, one request after the other
	// in call order, before it resumes the run.
	PauseToAsk bool
	// AwaitShown says the library pushes each part of the model's answer to
	// the app on its own (ADK's and eino's partial events) rather than the
	// app pulling it: Stream then waits, after each part it yields, until
	// the adapter's UI has shown it and called Turn.Shown, so that the next
	// part is asked for only then and the timeline after each event does
	// not depend on the goroutine schedule.
	AwaitShown bool
	// ReportsOnlySuccess says the library reports nothing for a call that
	// failed, was denied or was cancelled (its callbacks see only results
	// that succeeded): the kit counts such a call done once its tool
	// returned, without Turn.Reported, and the UI shows what the library
	// shows; at a cancelled end, UI.Interrupted shows the rows still live
	// interrupted (UI.InterruptLive), as a UI on such a library must.
	ReportsOnlySuccess bool
	// Patience is how long the kit waits for the library to settle before it
	// reports the engine as stuck (default 5s). It never decides an outcome:
	// a library that settles does so whatever the clock.
	Patience time.Duration
}
