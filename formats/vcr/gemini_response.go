package vcr

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// geminiChunk is a GenerateContentResponse: a whole response, or one chunk
// of a stream.
type geminiChunk struct {
	Candidates []struct {
		Content      geminiContent `json:"content"`
		FinishReason string        `json:"finishReason"`
		Index        int           `json:"index"`
	} `json:"candidates"`
	ResponseID     string          `json:"responseId"`
	PromptFeedback json.RawMessage `json:"promptFeedback"`
	Error          *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

// geminiStream is the state of one Gemini response being mapped.
type geminiStream struct {
	s        *state
	k        int // the index of the model content this response adds
	calls    int // function calls so far
	begun    bool
	finished bool
}

// geminiResponse maps a Gemini response body: an SSE stream (alt=sse) of
// chunks, a JSON array of chunks (streamGenerateContent without alt=sse),
// or one JSON response. ok is false when the body is none of these.
func (s *state) geminiResponse(p *parsed, body []byte, offset int) (ok bool, err error) {
	g := &geminiStream{s: s}
	if p.req != nil {
		g.k = p.req.contents
	}
	trimmed := bytes.TrimSpace(body)
	switch {
	case bytes.HasPrefix(trimmed, []byte("data:")):
		_, err = sse.ParseBytes(body, func(ev *sse.Event) error {
			if !ev.HasData || ev.Done() {
				return nil
			}
			var c geminiChunk
			if jerr := json.Unmarshal(ev.Data, &c); jerr != nil {
				return s.t.Problem(offset+ev.DataLine, "interaction %d: data is not valid JSON (%v): skipped", p.index, jerr)
			}
			return g.chunk(&c, offset+ev.DataLine)
		})
	case bytes.HasPrefix(trimmed, []byte("[")):
		var chunks []geminiChunk
		if json.Unmarshal(trimmed, &chunks) != nil {
			return false, nil
		}
		for i := range chunks {
			if err = g.chunk(&chunks[i], offset+1); err != nil {
				break
			}
		}
	default:
		var c geminiChunk
		if json.Unmarshal(trimmed, &c) != nil || c.Candidates == nil && c.Error == nil && c.PromptFeedback == nil {
			return false, nil
		}
		err = g.chunk(&c, offset+1)
	}
	if err != nil {
		return true, err
	}
	if g.begun && !g.finished {
		return true, s.t.Problem(offset+1, "interaction %d: the Gemini response has no finishReason: cut off", p.index)
	}
	return true, nil
}

// chunk maps one response chunk: candidate 0's parts, then its
// finishReason.
func (g *geminiStream) chunk(c *geminiChunk, line int) error {
	t := g.s.t
	if c.Error != nil {
		t.Fail(strings.TrimPrefix(c.Error.Status+": "+c.Error.Message, ": "))
		g.finished = true
		return nil
	}
	if !g.begun {
		if err := t.Begin(line, c.ResponseID); err != nil {
			return err
		}
		g.begun = true
	}
	for i := range c.Candidates {
		cand := &c.Candidates[i]
		if cand.Index != 0 {
			if err := t.Problem(line, "candidate %d not mapped: only candidate 0 is", cand.Index); err != nil {
				return err
			}
			continue
		}
		if err := g.parts(cand.Content.Parts, line); err != nil {
			return err
		}
		if cand.FinishReason != "" {
			g.finish(cand.FinishReason)
		}
	}
	if len(c.Candidates) == 0 && c.PromptFeedback != nil {
		t.Notice("prompt blocked: " + string(c.PromptFeedback))
		g.finish("")
	}
	return nil
}

// parts maps the parts of a model content: text, thoughts, function calls
// (with the ids callID derives).
func (g *geminiStream) parts(parts []geminiPart, line int) error {
	t := g.s.t
	for i := range parts {
		p := &parts[i]
		switch {
		case p.FunctionCall != nil:
			id := p.FunctionCall.ID
			if id == "" {
				id = callID(g.k, g.calls)
			}
			g.calls++
			if err := t.ToolCall(sse.Call{Line: line, ID: id, Name: p.FunctionCall.Name, Args: p.FunctionCall.Args}); err != nil {
				return err
			}
		case p.Text != nil && p.Thought:
			t.Thinking(*p.Text)
		case p.Text != nil:
			t.Text(*p.Text)
		default:
			t.Ignore("model " + geminiPartKind(p))
		}
	}
	return nil
}

// finish ends the response: finishReason STOP ends the turn unless calls
// await results; other reasons (MAX_TOKENS, SAFETY, ...) are noticed as a
// response cut short.
func (g *geminiStream) finish(reason string) {
	if g.finished {
		return
	}
	g.finished = true
	if reason != "STOP" && reason != "" && reason != "FINISH_REASON_UNSPECIFIED" {
		g.s.t.Notice("finishReason " + reason + ": the response was cut short")
	}
	g.s.t.End()
}
