// Package adapter puts cloudwego's eino (github.com/cloudwego/eino, its
// adk package) under toolsim with the executor kit: a ChatModelAgent runs
// for real in eino's Runner, against a scripted model and gated tools, and
// the AgentEvents the runner streams are recorded into the timeline a UI on
// them shows. README.md says what is wired and why.
package adapter

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/executor"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are what a UI on eino's runner events supports, for every check:
// each call on its own row; outputs and errors; text, reasoning, user
// turns, cancel and permissions; and eino's contract (Contract) and the
// behaviour it means by design (ByDesign).
var Options = executor.Options(sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureThinking,
	sim.FeatureUser, sim.FeatureCancel, sim.FeaturePermissions}, contract.Contract{Guarantees: Contract, ByDesign: ByDesign})

// Contract is what eino's real upstream, its own ReAct graph and tools
// node, never sends: the executor preset (contract.Executor) but
// fresh-ids, since the call ids are the model's and providers repeat them
// across steps. Two calls of one answer with one id stay out: eino runs
// them on goroutines of its own, and only their ids tell them apart.
var Contract = contract.Executor.Without(contract.FreshIDs)

// ByDesign is what eino does by design that SPEC §2 is stricter than and
// its documentation does not say (docs/findings/eino.md): a call's
// approval request (its tool's interrupt) reaches the app only once the
// step's other calls returned, as ADK's does. Findings that show it are
// set apart, labelled by design, undocumented. eino's documentation says
// nothing SPEC §2 is stricter than, so nothing is declared documented.
var ByDesign = []contract.Behaviour{contract.ApprovalAfterResults}

// Evidence is where eino v0.9.13 shows the behaviour of ByDesign.
var Evidence = map[contract.Behaviour]contract.Evidence{
	contract.ApprovalAfterResults: {Ref: "github.com/cloudwego/eino@v0.9.13 compose/tool_node.go:985-1017 " +
		"(ToolsNode runs every call of the step and waits for all, wg.Wait) and :1139-1140 " +
		"(only then gathers the interrupts into one CompositeInterrupt)"},
}

// Config is how eino runs a step's calls: all at once, one goroutine each
// (compose's ToolsNode), each result sent as an event as its tool returns,
// and nothing for a call that failed, was cancelled or was denied
// (ReportsOnlySuccess: the denied call's result, the app's own rejection
// text, comes only after the resume); a permission is asked by
// interrupting the run once the step's other calls returned (PauseToAsk),
// and the model's answer is pushed to the app on a copy of its stream
// (AwaitShown, Turn.Shown).
var Config = executor.Config{PauseToAsk: true, AwaitShown: true, ReportsOnlySuccess: true}

// New returns an engine that runs eino as a trace says: one Runner.Run per
// assistant turn, and one Runner.ResumeWithParams each time an interrupt
// is answered.
func New() harness.Engine { return executor.New(&Library{}, Config) }

// Library runs eino's runner for one assistant turn; it keeps the
// checkpoints of interrupted runs, as an app resuming them does.
type Library struct{ store executor.Checkpoints }

// deniedPrefix starts the result a denied call returns to the model
// (eino's human-in-the-loop pattern: the tool says it was rejected). The UI
// shows the denial when the app resumes with it, and nothing for the result.
const deniedPrefix = "rejected by the user: "

// Run runs the agent for one user message, as an app's chat loop does: a
// streaming Runner with a checkpoint store, each event recorded into the
// UI; when the run was interrupted for approvals, the user's answers
// (Turn.Resume: each shown as the trace gives it) sent back with
// ResumeWithParams, one target per interrupt; and the run's error.
func (l *Library) Run(ctx context.Context, turn *executor.Turn) error {
	tools := make([]tool.BaseTool, len(turn.Tools))
	for i, name := range turn.Tools {
		tools[i] = &gated{name: name, turn: turn}
	}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{Name: "assistant", Description: "toolsim",
		Model: &llm{turn: turn}, MaxIterations: 1 << 20, ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}}})
	if err != nil {
		return fmt.Errorf("eino: the agent: %w", err)
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, EnableStreaming: true, CheckPointStore: &l.store})
	var asks map[string]string // call id → its interrupt's id
	runErr := turn.Resume(ctx, func(answers map[string]error) (_ []string, err error) {
		var it *adk.AsyncIterator[*adk.AgentEvent]
		if answers == nil {
			it = runner.Run(ctx, []adk.Message{schema.UserMessage(cmp.Or(turn.Prompt, "go on"))}, adk.WithCheckPointID("turn"))
		} else {
			targets := map[string]any{}
			for call, id := range asks {
				if targets[id] = answers[call] == nil; answers[call] != nil {
					turn.UI.Result(call, "", answers[call]) // the app shows its user's denial
				}
			}
			if it, err = runner.ResumeWithParams(ctx, "turn", &adk.ResumeParams{Targets: targets}); err != nil {
				return nil, fmt.Errorf("eino: resume: %w", err)
			}
		}
		asks = map[string]string{}
		for ev, ok := it.Next(); ok; ev, ok = it.Next() {
			err = cmp.Or(record(turn, ev, asks), err)
		}
		return slices.Sorted(maps.Keys(asks)), err
	})
	switch {
	case ctx.Err() != nil:
		// eino sends nothing for a call the cancel stopped: the kit's UI
		// closes the rows still live (Config.ReportsOnlySuccess).
		turn.UI.Interrupted()
	case runErr != nil:
		turn.UI.Error(runErr.Error())
	default:
		turn.UI.Done()
	}
	return runErr
}

// record shows one runner event as a streaming UI does: the model's
// streamed message chunk by chunk (text, reasoning, each call as a row;
// then tells the kit it was shown: Config.AwaitShown); a tool's result on
// the row of its call id, then Turn.Reported; an interrupt's root causes
// noted in asks, so that the app asks the user (Turn.Resume shows them).
// It returns the event's error.
func record(turn *executor.Turn, ev *adk.AgentEvent, asks map[string]string) error {
	if ev.Action != nil && ev.Action.Interrupted != nil {
		for _, ic := range ev.Action.Interrupted.InterruptContexts {
			if call, ok := ic.Info.(string); ok && ic.IsRootCause {
				asks[call] = ic.ID
			}
		}
	}
	if ev.Err != nil || ev.Output == nil || ev.Output.MessageOutput == nil {
		return ev.Err
	}
	mo, ui := ev.Output.MessageOutput, turn.UI
	if mo.Role == schema.Tool {
		if !strings.HasPrefix(mo.Message.Content, deniedPrefix) { // a denial shows as the user gives it
			ui.Result(mo.Message.ToolCallID, mo.Message.Content, nil) // an invokable tool's result comes whole
		}
		turn.Reported(mo.Message.ToolCallID)
		return nil
	}
	// A stream ends at io.EOF, or with the error the run's last event repeats.
	for m, err := mo.MessageStream.Recv(); mo.IsStreaming && err == nil; m, err = mo.MessageStream.Recv() {
		switch { // the model streams one part a chunk
		case m.ReasoningContent != "":
			ui.Thinking(m.ReasoningContent)
		case len(m.ToolCalls) > 0:
			ui.Call(m.ToolCalls[0].ID, m.ToolCalls[0].Function.Name)
		default:
			ui.Text(m.Content)
		}
		turn.Shown()
	}
	return nil
}

// llm is the scripted model, an eino ToolCallingChatModel: each Stream is
// the answer the trace holds for that request, one message chunk per text,
// reasoning or call (each call whole, so with no index: eino's concat keeps
// such calls in their order), written into a schema.Pipe by a goroutine of
// its own. eino copies the stream, one copy for the app's event and one
// for its graph, and reads neither at the app's pace; the UI tells the kit
// when it showed a chunk (Turn.Shown, Config.AwaitShown), so the next part
// is asked for only then and the timeline after each event does not depend
// on the goroutine schedule.
type llm struct{ turn *executor.Turn }

// WithTools returns the model itself: the script decides what it calls.
func (m *llm) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

// Generate is the whole answer at once (eino streams when the runner
// does, as here).
func (m *llm) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	s, _ := m.Stream(ctx, input, opts...) // it never fails
	return schema.ConcatMessageStream(s)
}

// Stream streams the trace's answer; a cancel ends it with the context's
// error.
func (m *llm) Stream(ctx context.Context, _ []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	r, w := schema.Pipe[*schema.Message](1)
	go func() {
		defer w.Close()
		for p := range m.turn.Stream(ctx) {
			msg := &schema.Message{Role: schema.Assistant, Content: p.Text}
			switch p.Kind {
			case executor.PartThinking:
				msg.Content, msg.ReasoningContent = "", p.Text
			case executor.PartCall:
				msg.ToolCalls = []schema.ToolCall{{ID: p.ID, Type: "function", Function: schema.FunctionCall{Name: p.Name, Arguments: string(p.Args)}}}
			case executor.PartEnd:
				if p.Err != nil {
					w.Send(nil, p.Err)
				}
				continue
			}
			w.Send(msg, nil)
		}
	}()
	return r, nil
}

// gated is one of the app's tools, an eino InvokableTool whose body is the
// kit's gated Turn.Tool, for the call id eino puts in the tool's context
// (compose.GetToolCallID).
type gated struct {
	name string
	turn *executor.Turn
}

// Info is what the model is told about the tool: its name.
func (t *gated) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: t.name, Desc: t.name}, nil
}

// InvokableRun runs one call. A permission is asked the eino way, by
// interrupting from inside the tool (tool.Interrupt, its info the call id:
// eino's human-in-the-loop approval); once the user answered, eino runs
// the tool again as the resume's target with the answer
// (tool.GetResumeContext): a denial returns a result that says so, as
// eino's approval examples do, a grant goes on. A failure or a cancel
// returns the error, which fails eino's run; eino sends no event for it.
func (t *gated) InvokableRun(ctx context.Context, _ string, _ ...tool.Option) (string, error) {
	id := compose.GetToolCallID(ctx)
	if target, ok, granted := tool.GetResumeContext[bool](ctx); target && ok && !granted {
		return deniedPrefix + t.name, nil
	}
	out := t.turn.Tool(ctx, id)
	switch {
	case out.Asked:
		return "", tool.Interrupt(ctx, id)
	case out.Err != nil:
		return "", fmt.Errorf("tool %s: %w", t.name, out.Err)
	}
	return out.Output, nil
}
