// Package adapter puts Google's Agent Development Kit for Go
// (google.golang.org/adk/v2) under toolsim with the executor kit: an ADK
// LLM agent runs for real in ADK's runner, against a scripted model and
// gated tools, and the events the runner streams are recorded into the
// timeline a UI on them shows. README.md says what is wired and why.
package adapter

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/platform"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/toolconfirmation"
	"google.golang.org/genai"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/executor"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are what a UI on ADK's runner events supports, for every check:
// each call on its own row; outputs and errors; text, reasoning, user
// turns, cancel and permissions; and ADK's contract (Contract) and the
// behaviours it means by design (ByDesign).
var Options = executor.Options(sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureThinking,
	sim.FeatureUser, sim.FeatureCancel, sim.FeaturePermissions}, contract.Contract{Guarantees: Contract, ByDesign: ByDesign})

// Contract is what ADK's real upstream, its own flow and tool runner,
// never sends: the executor preset (contract.Executor) but unique-ids and
// fresh-ids. The call ids are the model's when it sends them (ADK makes
// one up only for a call without), and providers repeat them.
var Contract = contract.Executor.Without(contract.UniqueIDs, contract.FreshIDs)

// ByDesign is what ADK does by design that SPEC §2 is stricter than
// (docs/findings/adk.md): a step's function responses come in one event
// once its last call returned (mergeParallelFunctionResponseEvents), and
// a confirmation request after them. ADK's docs say neither; its code and
// a merged PR show each (Evidence). Findings that show them are set
// apart, labelled by design, undocumented. A third design, nothing
// yielded of the calls in flight after a cancel (cancel-drops-in-flight,
// its ref beside Evidence), is not declared: the app knows the run ended
// cancelled and closes its live rows (New's UI does), so a row left
// running is a bug.
var ByDesign = []contract.Behaviour{contract.ResultsAtStepEnd, contract.ApprovalAfterResults}

// Evidence is where ADK v2.2.0 shows each behaviour of ByDesign. The
// third design's is workflow/scheduler.go:556: once cancelled, "remaining
// queue items are drained without yielding".
var Evidence = map[contract.Behaviour]contract.Evidence{
	contract.ResultsAtStepEnd: {Ref: "google.golang.org/adk/v2@v2.2.0 internal/llminternal/base_flow.go:1233 " +
		"(the step's function response events merged into one, mergeParallelFunctionResponseEvents at :1345, " +
		"once every call returned)"},
	contract.ApprovalAfterResults: {Ref: "google.golang.org/adk/v2@v2.2.0 internal/llminternal/base_flow.go:653 " +
		"(\"Yield function responses before confirmation requests\"); google/adk-go PR #765, merged"},
}

// Config is how ADK runs a step's calls: all at once, one goroutine each
// (through the task runner, Turn.RunTasks here), and one event with every
// function response once the last call returned
// (mergeParallelFunctionResponseEvents); a permission is asked by pausing
// the run (tool confirmation), which ADK does once that event is out.
var Config = executor.Config{AtStepEnd: true, PauseToAsk: true, AwaitShown: true}

// New returns an engine that runs ADK as a trace says: one session for
// the whole trace, one runner.Run per assistant turn and one more each
// time a confirmation pause is answered.
func New() harness.Engine { return executor.New(&Library{}, Config) }

// Library runs ADK's runner for one assistant turn; it keeps the session
// across turns, as a chat app does.
type Library struct {
	sessions session.Service
	ids      atomic.Uint64 // the last id newID made
}

// newID is the ids ADK makes (events, invocations, confirmation
// requests) through its platform seam: a count, unique in the session,
// for no UI shows them; ADK's default draws a random UUID each time.
func (l *Library) newID() string { return strconv.FormatUint(l.ids.Add(1), 10) }

const (
	appName  = "toolsim"
	userID   = "user"
	session1 = "session"
)

// Run runs the agent for one user message, as an app's chat loop does:
// runner.Run in streaming mode (SSE), each event it yields recorded into
// the UI; when the run paused for tool confirmations, the user's answers
// (Turn.Resume: each shown as the trace gives it) sent back as the next
// message, which resumes it; and the run's error.
func (l *Library) Run(ctx context.Context, turn *executor.Turn) error {
	if l.sessions == nil {
		l.sessions = session.InMemoryService()
		if _, err := l.sessions.Create(ctx, &session.CreateRequest{AppName: appName, UserID: userID, SessionID: session1}); err != nil {
			return err
		}
	}
	m := &llm{turn: turn}
	tools := make([]tool.Tool, len(turn.Tools))
	for i, name := range turn.Tools {
		tools[i] = newTool(name, turn)
	}
	a, err := llmagent.New(llmagent.Config{Name: "assistant", Model: m, Tools: tools})
	if err != nil {
		return err
	}
	r, err := runner.New(runner.Config{AppName: appName, Agent: a, SessionService: l.sessions})
	if err != nil {
		return err
	}
	prompt := turn.Prompt
	if prompt == "" {
		prompt = "go on"
	}
	ui := turn.UI
	// ADK runs a step's calls through the context's task runner: the kit's
	// starts them in call order, each once the one before entered its tool.
	run := platform.WithUUIDProvider(platform.WithTaskRunner(ctx, turn.RunTasks), l.newID)
	var asks []ask
	runErr := turn.Resume(ctx, func(answers map[string]error) (asked []string, err error) {
		msg := genai.NewContentFromText(prompt, genai.RoleUser)
		if answers != nil {
			msg = reply(asks, answers)
		}
		asks = nil
		for ev, e := range r.Run(run, userID, session1, msg, agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
			if e != nil {
				err = e
				continue
			}
			asks = append(asks, record(turn, ev)...)
		}
		for _, a := range asks {
			asked = append(asked, a.call)
		}
		return asked, err
	})
	switch {
	case ctx.Err() != nil:
		// ADK yields nothing of the calls in flight once cancelled
		// (cancel-drops-in-flight); the run's end with the context's
		// error is how the app knows, and it closes its live rows.
		ui.InterruptLive()
		ui.Interrupted()
		return ctx.Err()
	case runErr != nil:
		ui.Error(runErr.Error())
	default:
		ui.Done()
	}
	return runErr
}

// ask is one confirmation request: ADK's adk_request_confirmation call
// and the call it asks about.
type ask struct{ id, call string }

// reply is the message that sends the user's answers: one function
// response per request, {"confirmed": bool}, in the order of the
// requests.
func reply(asks []ask, answers map[string]error) *genai.Content {
	msg := &genai.Content{Role: genai.RoleUser}
	for _, a := range asks {
		msg.Parts = append(msg.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{
			ID: a.id, Name: toolconfirmation.FunctionCallName, Response: map[string]any{"confirmed": answers[a.call] == nil}}})
	}
	return msg
}

// record shows one runner event as a streaming UI does: a partial event's
// text, thought or call as it streams (then tells the kit it was shown:
// Config.AwaitShown); a function response's result on the row of its call
// id; a confirmation request returned, so that the app asks the user
// (Turn.Resume shows it). The final model event repeats what its
// partial events streamed, and is what ADK stores in the session: the UI
// shows nothing new for it.
func record(turn *executor.Turn, ev *session.Event) []ask {
	if ev == nil || ev.Content == nil {
		return nil
	}
	ui := turn.UI
	if ev.Partial {
		for _, p := range ev.Content.Parts {
			switch {
			case p.FunctionCall != nil:
				ui.Call(p.FunctionCall.ID, p.FunctionCall.Name)
			case p.Thought:
				ui.Thinking(p.Text)
			case p.Text != "":
				ui.Text(p.Text)
			}
		}
		turn.Shown()
		return nil
	}
	var asks []ask
	for _, p := range ev.Content.Parts {
		switch {
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			output, err := result(fr.Response)
			ui.Result(fr.ID, output, err)
			turn.Reported(fr.ID)
		case p.FunctionCall != nil && p.FunctionCall.Name == toolconfirmation.FunctionCallName:
			orig, err := toolconfirmation.OriginalCallFrom(p.FunctionCall)
			if err != nil {
				continue
			}
			asks = append(asks, ask{id: p.FunctionCall.ID, call: orig.ID})
		}
	}
	return asks
}

// result reads a function response as a UI does: {"error": text} is a
// failure (a rejected confirmation, tool.ErrConfirmationRejected, is the
// user's denial), anything else its output.
func result(resp map[string]any) (string, error) {
	if e, ok := resp["error"]; ok {
		msg := fmt.Sprint(e)
		if strings.HasSuffix(msg, tool.ErrConfirmationRejected.Error()) {
			return "", fmt.Errorf("%s: %w", msg, executor.ErrDenied)
		}
		return "", errors.New(msg)
	}
	out, _ := resp["output"].(string)
	return out, nil
}
