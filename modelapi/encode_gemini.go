package modelapi

import (
	"encoding/json"
	"strings"
)

// geminiStream writes a Gemini streamGenerateContent response: a
// GenerateContentResponse chunk per text delta, then a last chunk with
// the rest of the text, a functionCall part per call and finishReason
// STOP; every chunk has usageMetadata, modelVersion and responseId. As
// server-sent events (alt=sse) or, with array, as a JSON array.
type geminiStream struct {
	s      *sink
	m      meta
	array  bool
	chunks int // chunks written
	sent   strings.Builder
}

func (e *geminiStream) begin() {}

func (e *geminiStream) text(delta string) {
	if delta != "" {
		e.sent.WriteString(delta)
		e.chunk([]any{o("text", delta)}, false, 0)
	}
}

func (e *geminiStream) chunk(parts []any, finish bool, out int) {
	c := geminiChunk(e.m, parts, finish, out)
	if !e.array {
		e.s.sse("", c)
		e.chunks++
		return
	}
	b, err := marshal(c)
	if err != nil {
		e.s.fail(err)
		return
	}
	sep := ",\r\n"
	if e.chunks == 0 {
		sep = "["
	}
	e.chunks++
	e.s.write(append([]byte(sep), b...))
}

func (e *geminiStream) finish(r Reply) {
	e.sent.WriteString(r.Text)
	parts := geminiParts(r)
	if len(parts) == 0 {
		parts = []any{o("text", "")}
	}
	e.chunk(parts, true, outTokens(e.sent.String(), r.Calls))
	if e.array {
		e.s.write([]byte("]"))
	}
}

// geminiParts are the parts of r: its text, then a functionCall per call
// (with an id when the call has one).
func geminiParts(r Reply) []any {
	var parts []any
	if r.Text != "" {
		parts = append(parts, o("text", r.Text))
	}
	for _, c := range r.Calls {
		fc := o("name", c.Name, "args", json.RawMessage(argString(c)))
		if c.ID != "" {
			fc = append(o("id", c.ID), fc...)
		}
		parts = append(parts, o("functionCall", fc))
	}
	return parts
}

// geminiChunk is one GenerateContentResponse; finish adds finishReason
// STOP and the output token count out.
func geminiChunk(m meta, parts []any, finish bool, out int) obj {
	cand := o("content", o("parts", parts, "role", "model"))
	usage := o("promptTokenCount", m.inTok, "totalTokenCount", m.inTok)
	if finish {
		cand = append(cand, member{"finishReason", "STOP"})
		usage = o("promptTokenCount", m.inTok, "candidatesTokenCount", out, "totalTokenCount", m.inTok+out)
	}
	cand = append(cand, member{"index", 0})
	return o("candidates", []any{cand}, "usageMetadata", usage, "modelVersion", m.model, "responseId", m.id)
}

// geminiWhole is the response of generateContent.
func geminiWhole(r Reply, m meta) any {
	parts := geminiParts(r)
	if len(parts) == 0 {
		parts = []any{o("text", "")}
	}
	return geminiChunk(m, parts, true, outTokens(r.Text, r.Calls))
}
