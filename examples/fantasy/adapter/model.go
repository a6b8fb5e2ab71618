package adapter

import (
	"context"
	"errors"

	"charm.land/fantasy"

	"github.com/toolsim/toolsim/executor"
)

// model is the scripted language model: each Stream is the answer the
// trace holds for that request, converted to fantasy's stream parts the
// way a provider streams them (text and reasoning blocks with start and
// end, a call's input start, delta, end and the call itself, a finish with
// the reason, or an error part when the request was cancelled).
type model struct{ turn *executor.Turn }

func (m *model) Provider() string { return "toolsim" }
func (m *model) Model() string    { return "scripted" }

func (m *model) Generate(context.Context, fantasy.Call) (*fantasy.Response, error) {
	return nil, errors.New("the scripted model only streams")
}

func (m *model) GenerateObject(context.Context, fantasy.ObjectCall) (*fantasy.ObjectResponse, error) {
	return nil, errors.New("the scripted model only streams")
}

func (m *model) StreamObject(context.Context, fantasy.ObjectCall) (fantasy.ObjectStreamResponse, error) {
	return nil, errors.New("the scripted model only streams")
}

func (m *model) Stream(ctx context.Context, _ fantasy.Call) (fantasy.StreamResponse, error) {
	return func(yield func(fantasy.StreamPart) bool) {
		s := streamer{yield: yield}
		for p := range m.turn.Stream(ctx) {
			if !s.part(p) {
				return
			}
		}
	}, nil
}

// streamer converts the kit's parts, keeping the open block.
type streamer struct {
	yield func(fantasy.StreamPart) bool
	open  fantasy.StreamPartType // the block being streamed: text or reasoning, "" for none
	calls bool
}

func (s *streamer) part(p executor.Part) bool {
	switch p.Kind {
	case executor.PartText:
		return s.block(fantasy.StreamPartTypeTextStart) && s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeTextDelta, ID: "text", Delta: p.Text})
	case executor.PartThinking:
		return s.block(fantasy.StreamPartTypeReasoningStart) && s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeReasoningDelta, ID: "reasoning", Delta: p.Text})
	case executor.PartCall:
		return s.block("") && s.call(p)
	}
	if p.Err != nil {
		return s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeError, Error: p.Err})
	}
	reason := fantasy.FinishReasonStop
	if s.calls {
		reason = fantasy.FinishReasonToolCalls
	}
	return s.block("") && s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeFinish, FinishReason: reason})
}

// block closes the open block and opens one of kind start (none: "").
func (s *streamer) block(start fantasy.StreamPartType) bool {
	if s.open == start {
		return true
	}
	switch s.open {
	case fantasy.StreamPartTypeTextStart:
		if !s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeTextEnd, ID: "text"}) {
			return false
		}
	case fantasy.StreamPartTypeReasoningStart:
		if !s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeReasoningEnd, ID: "reasoning"}) {
			return false
		}
	}
	s.open = start
	switch start {
	case fantasy.StreamPartTypeTextStart:
		return s.yield(fantasy.StreamPart{Type: start, ID: "text"})
	case fantasy.StreamPartTypeReasoningStart:
		return s.yield(fantasy.StreamPart{Type: start, ID: "reasoning"})
	}
	return true
}

func (s *streamer) call(p executor.Part) bool {
	s.calls = true
	args := string(p.Args)
	if args == "" {
		args = "{}"
	}
	return s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeToolInputStart, ID: p.ID, ToolCallName: p.Name}) &&
		s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeToolInputDelta, ID: p.ID, Delta: args}) &&
		s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeToolInputEnd, ID: p.ID}) &&
		s.yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeToolCall, ID: p.ID, ToolCallName: p.Name, ToolCallInput: args})
}
