// Package adapter puts Charm's fantasy (charm.land/fantasy, the agent
// library Crush runs on) under toolsim with the executor kit: fantasy's
// agent runs for real, against a scripted model and gated tools, and its
// callbacks are recorded into the timeline a UI on them shows. README.md
// says what is wired and why.
package adapter

import (
	"context"
	"errors"
	"fmt"

	"charm.land/fantasy"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/executor"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are what a UI on fantasy's callbacks supports, for every check:
// each call on its own row; outputs and errors; text, reasoning, user
// turns, cancel and permissions; and fantasy's contract (Contract).
var Options = executor.Options(sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureThinking,
	sim.FeatureUser, sim.FeatureCancel, sim.FeaturePermissions}, contract.Contract{Guarantees: Contract})

// Contract is what fantasy's real upstream, its own model loop and tool
// runner, never sends: the executor preset (contract.Executor) but
// unique-ids and fresh-ids. The call ids are the provider's, and providers
// repeat them, within an answer (charmbracelet/crush#3107, #3121) and
// across steps.
var Contract = contract.Executor.Without(contract.UniqueIDs, contract.FreshIDs)

// Config is how fantasy runs a step's calls: parallel tools on at most 5
// goroutines, each result reported (OnToolResult) as its tool returns.
var Config = executor.Config{Parallel: 5}

// New returns an engine that runs fantasy as a trace says.
func New() harness.Engine { return executor.New(Library{}, Config) }

// Library runs fantasy's agent for one assistant turn.
type Library struct{}

// ErrPermissionDenied is what a tool returns when the user denied its
// permission, as Crush's tools return permission.ErrorPermissionDenied.
var ErrPermissionDenied = fmt.Errorf("user denied permission: %w", executor.ErrDenied)

// Run streams one agent run, as Crush's session agent does: the prompt,
// fantasy's callbacks recorded into the UI, and the run's error.
func (Library) Run(ctx context.Context, turn *executor.Turn) error {
	tools := make([]fantasy.AgentTool, len(turn.Tools))
	for i, name := range turn.Tools {
		tools[i] = &tool{turn: turn, info: fantasy.ToolInfo{Name: name, Description: name, Parameters: map[string]any{}, Parallel: true}}
	}
	agent := fantasy.NewAgent(&model{turn: turn}, fantasy.WithTools(tools...), fantasy.WithMaxRetries(0))
	prompt := turn.Prompt
	if prompt == "" {
		prompt = "go on"
	}
	_, err := agent.Stream(ctx, callbacks(turn, prompt))
	ui := turn.UI
	switch {
	case err == nil:
		ui.Done()
	case errors.Is(err, context.Canceled):
		ui.Interrupted()
	default:
		ui.Error(err.Error())
	}
	return err
}

// callbacks records fantasy's callbacks into the UI, as Crush's do into
// its message: a tool call appears at OnToolInputStart, its result at
// OnToolResult.
func callbacks(turn *executor.Turn, prompt string) fantasy.AgentStreamCall {
	ui := turn.UI
	return fantasy.AgentStreamCall{
		Prompt:           prompt,
		OnTextDelta:      func(_, text string) error { ui.Text(text); return nil },
		OnReasoningDelta: func(_, text string) error { ui.Thinking(text); return nil },
		OnToolInputStart: func(id, name string) error { ui.Call(id, name); return nil },
		OnToolResult: func(r fantasy.ToolResultContent) error {
			defer turn.Reported(r.ToolCallID)
			output, err := result(r)
			ui.Result(r.ToolCallID, output, err)
			return nil
		},
	}
}

// result reads a tool result as a UI does: its text, or its error.
func result(r fantasy.ToolResultContent) (string, error) {
	switch out := r.Result.(type) {
	case fantasy.ToolResultOutputContentText:
		return out.Text, nil
	case fantasy.ToolResultOutputContentError:
		if out.Error == nil {
			return "", errors.New("")
		}
		return "", out.Error
	}
	return "", nil
}

// tool is one of the app's tools: its Run is the kit's gated body.
type tool struct {
	turn *executor.Turn
	info fantasy.ToolInfo // no parameters; parallel
	opts fantasy.ProviderOptions
}

// Info is asked for every tool at every step: built once per run.
func (t *tool) Info() fantasy.ToolInfo { return t.info }

// Run runs until toolsim ends the call. A permission is asked inside Run,
// as Crush's tools call permissions.Request; a denial returns
// ErrPermissionDenied, a cancel the context's error, a failure an error
// response the model sees.
func (t *tool) Run(ctx context.Context, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
	out := t.turn.Tool(ctx, call.ID)
	switch {
	case out.Err == nil:
		return fantasy.NewTextResponse(out.Output), nil
	case errors.Is(out.Err, executor.ErrDenied):
		return fantasy.ToolResponse{}, ErrPermissionDenied
	case errors.Is(out.Err, context.Canceled):
		return fantasy.ToolResponse{}, out.Err
	}
	return fantasy.NewTextErrorResponse(out.Err.Error()), nil
}

func (t *tool) ProviderOptions() fantasy.ProviderOptions        { return t.opts }
func (t *tool) SetProviderOptions(opts fantasy.ProviderOptions) { t.opts = opts }
