package adapter

import (
	"fmt"

	"google.golang.org/genai"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/toolutils"

	"github.com/toolsim/toolsim/executor"
)

// gated is one of the app's tools: a custom ADK function tool (the
// package tool's "define your own custom tools"; ADK's flow calls any
// tool with Declaration and Run, as it does its own mcptoolset and
// loadartifactstool) whose body is the kit's gated Turn.Tool.
//
// It is not functiontool's because functiontool turns a Go function's
// typed arguments and result into JSON and validates both against JSON
// schemas on every call; the body here takes any object and returns one
// string, so there is nothing to convert, and the declaration is built
// once per run. What ADK does around the call (callbacks, the function
// response, the merge, the confirmation pause) is the same.
type gated struct {
	name string
	turn *executor.Turn
	decl *genai.FunctionDeclaration
}

// The JSON schemas every tool declares, shared and never changed: its
// arguments are any object, its result {"output": text}.
var (
	argsSchema   = map[string]any{"type": "object"}
	resultSchema = map[string]any{"type": "object", "required": []any{"output"},
		"properties": map[string]any{"output": map[string]any{"type": "string"}}}
)

// newTool is the tool called name for the run of turn.
func newTool(name string, turn *executor.Turn) *gated {
	return &gated{name: name, turn: turn, decl: &genai.FunctionDeclaration{
		Name: name, Description: name, ParametersJsonSchema: argsSchema, ResponseJsonSchema: resultSchema}}
}

// Name is the tool's name, as the model calls it.
func (t *gated) Name() string { return t.name }

// Description is what the model reads about it: its name.
func (t *gated) Description() string { return t.name }

// IsLongRunning is false: a call's function response is its result.
func (t *gated) IsLongRunning() bool { return false }

// Declaration is what the model is told about the tool.
func (t *gated) Declaration() *genai.FunctionDeclaration { return t.decl }

// ProcessRequest adds the declaration to a model request, as ADK's own
// function tools do.
func (t *gated) ProcessRequest(_ agent.Context, req *model.LLMRequest) error {
	return toolutils.PackTool(req, t)
}

// Run runs one call. A permission is asked the ADK way, from inside the
// tool (agent.Context.RequestConfirmation, as functiontool does for
// RequireConfirmation): the tool returns tool.ErrConfirmationRequired and
// the run pauses; once the user answered, ADK runs the tool again with
// the answer (ToolConfirmation): a rejection returns
// tool.ErrConfirmationRejected as functiontool does, a grant goes on. A
// cancel returns the context's error, a failure its error (ADK sends
// {"error": text} to the model), a result {"output": text}.
func (t *gated) Run(ctx agent.Context, _ any) (map[string]any, error) {
	if c := ctx.ToolConfirmation(); c != nil && !c.Confirmed {
		return nil, fmt.Errorf("error tool %q %w", t.name, tool.ErrConfirmationRejected)
	}
	out := t.turn.Tool(ctx, ctx.FunctionCallID())
	switch {
	case out.Asked:
		if err := ctx.RequestConfirmation(fmt.Sprintf("Allow %s?", t.name), nil); err != nil {
			return nil, err
		}
		ctx.Actions().SkipSummarization = true
		return nil, fmt.Errorf("error tool %q %w", t.name, tool.ErrConfirmationRequired)
	case out.Err != nil:
		return nil, out.Err
	}
	return map[string]any{"output": out.Output}, nil
}
