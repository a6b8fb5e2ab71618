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
	"slices"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/platform"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/executor"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are what a UI on ADK's runner events supports, for every check:
// each call on its own row; outputs and errors; text, reasoning, user
// turns, cancel and permissions; and ADK's contract (Contract).
var Options = harness.Options{
	NoGrouping: true,
	Fields:     []string{"output", "error"},
	Features: sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureThinking, sim.FeatureUser,
		sim.FeatureCancel, sim.FeaturePermissions},
	Contract: contract.Contract{Guarantees: Contract},
}

// Contract is what ADK's real upstream, its own flow and tool runner,
// never sends: the executor preset (contract.Executor) but unique-ids and
// fresh-ids. The call ids are the model's when it sends them (ADK makes
// one up only for a call without), and providers repeat them.
var Contract = without(contract.Executor, contract.UniqueIDs, contract.FreshIDs)

func without(l contract.List, gs ...contract.Guarantee) contract.List {
	var out contract.List
	for _, g := range l {
		if !slices.Contains(gs, g) {
			out = append(out, g)
		}
	}
	return out
}

// Config is how ADK runs a step's calls: all at once, one goroutine each
// (through the task runner, Turn.RunTasks here), and one event with every
// function response once the last call returned
// (mergeParallelFunctionResponseEvents).
var Config = executor.Config{AtStepEnd: true}

// New returns an engine that runs ADK as a trace says: one session for
// the whole trace, one runner.Run per assistant turn.
func New() harness.Engine { return executor.New(&Library{}, Config) }

// Library runs ADK's runner for one assistant turn; it keeps the session
// across turns, as a chat app does.
type Library struct {
	sessions session.Service
}

const (
	appName  = "toolsim"
	userID   = "user"
	session1 = "session"
)

// ErrPermissionDenied is what a tool returns when the user denied its
// permission: ADK puts its text in the function response, where the UI
// recognises it.
var ErrPermissionDenied = fmt.Errorf("user denied permission: %w", executor.ErrDenied)

// Run runs the agent for one user message, as an app's chat loop does:
// runner.Run in streaming mode (SSE), each event it yields recorded into
// the UI, and the run's error.
func (l *Library) Run(ctx context.Context, turn *executor.Turn) error {
	if l.sessions == nil {
		l.sessions = session.InMemoryService()
		if _, err := l.sessions.Create(ctx, &session.CreateRequest{AppName: appName, UserID: userID, SessionID: session1}); err != nil {
			return err
		}
	}
	m := &llm{turn: turn, shown: make(chan struct{}, 1)}
	tools := make([]tool.Tool, len(turn.Tools))
	for i, name := range turn.Tools {
		t, err := newTool(turn, name)
		if err != nil {
			return err
		}
		tools[i] = t
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
	var runErr error
	// ADK runs a step's calls through the context's task runner: the kit's
	// starts them in call order, each once the one before entered its tool.
	run := platform.WithTaskRunner(ctx, turn.RunTasks)
	for ev, err := range r.Run(run, userID, session1, genai.NewContentFromText(prompt, genai.RoleUser),
		agent.RunConfig{StreamingMode: agent.StreamingModeSSE}) {
		if err != nil {
			runErr = err
			continue
		}
		record(turn, m, ev)
	}
	switch {
	case ctx.Err() != nil:
		ui.Interrupted()
		return ctx.Err()
	case runErr != nil:
		ui.Error(runErr.Error())
	default:
		ui.Done()
	}
	return runErr
}

// record shows one runner event as a streaming UI does: a partial event's
// text, thought or call as it streams (then tells the model it was
// shown); a function response's result on the row of its call id. The
// final model event repeats what its partial events streamed, and is
// what ADK stores in the session: the UI shows nothing new for it.
func record(turn *executor.Turn, m *llm, ev *session.Event) {
	if ev == nil || ev.Content == nil {
		return
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
		select {
		case m.shown <- struct{}{}:
		default:
		}
		return
	}
	for _, p := range ev.Content.Parts {
		if fr := p.FunctionResponse; fr != nil {
			output, err := result(fr.Response)
			ui.Result(fr.ID, output, err)
			turn.Reported(fr.ID)
		}
	}
}

// result reads a function response as a UI does: {"error": text} is a
// failure (the app's denial and a cancel recognised by their text),
// anything else its output.
func result(resp map[string]any) (string, error) {
	if e, ok := resp["error"]; ok {
		msg := fmt.Sprint(e)
		switch msg {
		case ErrPermissionDenied.Error():
			return "", ErrPermissionDenied
		case context.Canceled.Error():
			return "", context.Canceled
		}
		return "", errors.New(msg)
	}
	out, _ := resp["output"].(string)
	return out, nil
}

// output is what a tool returns to the model.
type output struct {
	Output string `json:"output"`
}

// newTool is one of the app's tools, a function tool whose body is the
// kit's gated Tool. A permission is asked inside it, as a Go app without
// ADK's confirmation flow does; a denial returns ErrPermissionDenied, a
// cancel the context's error, a failure its error (ADK sends
// {"error": text} to the model).
func newTool(turn *executor.Turn, name string) (tool.Tool, error) {
	return functiontool.New(functiontool.Config{Name: name, Description: name},
		func(ctx agent.Context, _ map[string]any) (output, error) {
			out := turn.Tool(ctx, ctx.FunctionCallID())
			switch {
			case out.Err == nil:
				return output{Output: out.Output}, nil
			case errors.Is(out.Err, executor.ErrDenied):
				return output{}, ErrPermissionDenied
			}
			return output{}, out.Err
		})
}
