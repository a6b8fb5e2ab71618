// Package executor is toolsim's kit for Go agent libraries that run tools
// themselves (an executor: the library asks the model, runs the calls of its
// answer on goroutines, reports each result, and asks again). It turns such a
// library into a harness.Engine, so that campaign.Fuzz, harnesstest.ReplayDir
// and [Suite] judge what the library gives a UI.
//
// toolsim drives the library from both ends, exactly as a trace says:
//
//   - the model: [Turn.Stream] is the scripted answer to each model request,
//     built from the trace's text, thinking and calls ([Part]); a batch of
//     calls ends the answer after its last call. The adapter converts it to the
//     library's model interface.
//   - the tools: [Turn.Tool] is the body of every tool. It blocks until the
//     trace finishes the call (ok or failed), asks its permission inside the
//     tool as Crush does (granted, or denied: [ErrDenied]), or cancels it
//     (context.Canceled). Parallel tools enter their Run in goroutine order,
//     not call order: the kit waits on its own "started" signal for each call,
//     so the outcome is the same whatever the schedule. A library that lets
//     its caller schedule the calls takes [Turn.RunTasks], which starts them
//     in call order (one id on two calls of an answer stays deterministic).
//     A library that asks permission by pausing the run (ADK for Go's tool
//     confirmation) sets [Config.PauseToAsk]: the tool returns to ask, and
//     the adapter waits for the user's answer with [Turn.Answer].
//   - the user: a cancel cancels the context the library runs under; a user
//     message is the next run's prompt.
//
// The UI side is the adapter's: it records what the library's callbacks or
// events say into a [UI] (text, a call, a result with the error the library
// reported, a notice), which is the timeline toolsim checks. The kit pairs
// nothing and decides no status beyond what a result's error says.
//
// After each event the kit waits until the library has done everything that
// event allows and is waiting on toolsim again: the model stream waiting for
// its next part, each call of the step parked in its tool (as many as
// [Config.Parallel] lets run), a result reported ([Turn.Reported]), or the run
// over. That is what makes every timeline deterministic; it needs no clock.
// The kit sleeps meanwhile: each parked stream, tool and answer waits on a
// channel of its own, and only the change that settles the library wakes
// the goroutine feeding the events.
// A library that never gets there (a result never reported) is reported as
// an engine failure after [Config.Patience], naming what the kit waited for.
//
// The engine's upstream is the library itself, so its contract is
// contract.Executor: a call's result never comes before the call, one id is
// never reused, the model is asked again only once every call of the step
// ended. Declare it in the harness.Options the adapter uses.
//
// What every adapter would otherwise write by hand, the kit has:
//
//   - [Config.AwaitShown] and [Turn.Shown]: the "shown" handshake of a
//     library that pushes the model's parts to the app (ADK's and eino's
//     partial events).
//   - [Turn.Resume] and [Turn.Answers]: the answer-and-resume loop of a
//     library that pauses to ask, each answer shown as the trace gives it,
//     not in call order; [Checkpoints], an in-memory checkpoint store for
//     one that saves the paused run.
//   - [UI.CallRow] (a [Row] handle per call, so two calls of one id each
//     keep their row) and [UI.ResultOf] (a join on id and tool name).
//   - [Config.ReportsOnlySuccess] for a library that reports nothing for a
//     failed or cancelled call: [UI.Interrupted] then ends the rows it
//     leaves live at a cancelled end ([UI.InterruptLive]).
//   - [Repeat]: replay one trace many times and name the first replay
//     that differs.
//
// [Options] are the check options of an adapter whose timeline is the
// kit's UI; [Suite] is the adapter's Go test (Suite.Run: a time cap, no
// shrinking, a JSON report; a baseline not written yet is none) and
// benchmark (Suite.Bench: scenarios/s and CPU per scenario).
//
// A fault of the kit's own is never the library's finding: when the UI
// changes after an event settled and before the next reaches the library,
// the engine fails with harness.ToolsimFault, which a campaign returns as
// toolsim's error (campaign.ToolsimError), not as a bug class.
//
// Runnable example: New. examples/fantasy (Charm's fantasy) and
// examples/adk (Google's ADK for Go) are whole adapters, each in its own
// module.
package executor
