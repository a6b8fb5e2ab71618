package adapter

import (
	"context"
	"encoding/json"
	"iter"

	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"

	"github.com/toolsim/toolsim/executor"
)

// llm is the scripted model: each GenerateContent is the answer the trace
// holds for that request, streamed the way ADK's Gemini model streams one
// (server-sent events): every text, thought or call arrives as a partial
// response, then one final response aggregates them. ADK forwards partial
// responses as partial events without waiting for the app; the UI tells
// the kit when it rendered one (Turn.Shown, Config.AwaitShown), so the
// next part is asked for only then and the timeline after each event
// does not depend on the goroutine schedule.
type llm struct {
	turn *executor.Turn
}

func (m *llm) Name() string { return "toolsim-scripted" }

func (m *llm) GenerateContent(ctx context.Context, _ *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		var all []*genai.Part
		var end executor.Part
		for p := range m.turn.Stream(ctx) {
			var part *genai.Part
			switch p.Kind {
			case executor.PartText:
				part = &genai.Part{Text: p.Text}
			case executor.PartThinking:
				part = &genai.Part{Text: p.Text, Thought: true}
			case executor.PartCall:
				part = &genai.Part{FunctionCall: &genai.FunctionCall{ID: p.ID, Name: p.Name, Args: args(p.Args)}}
			default:
				end = p
				continue // the stream ends after it: the answer is over before ADK acts on it
			}
			all = append(all, part)
			if !yield(&model.LLMResponse{Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{part}}, Partial: true}, nil) {
				return
			}
		}
		if end.Err != nil {
			yield(nil, end.Err)
			return
		}
		yield(&model.LLMResponse{Content: &genai.Content{Role: genai.RoleModel, Parts: aggregate(all)},
			TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
}

// aggregate is the final response's content, as ADK's stream aggregator
// builds it: consecutive texts of one kind joined, calls as they came.
func aggregate(parts []*genai.Part) []*genai.Part {
	var out []*genai.Part
	for _, p := range parts {
		if n := len(out); n > 0 && p.Text != "" && out[n-1].Text != "" && out[n-1].Thought == p.Thought {
			out[n-1] = &genai.Part{Text: out[n-1].Text + p.Text, Thought: p.Thought}
			continue
		}
		out = append(out, p)
	}
	return out
}

// args decodes a call's JSON arguments; anything but an object is empty.
func args(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}
