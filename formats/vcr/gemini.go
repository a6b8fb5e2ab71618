package vcr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// Gemini API (generateContent / streamGenerateContent, Google AI and
// Vertex AI): a request holds "contents" [{role: user|model, parts}], the
// system prompt in "systemInstruction"; a part is text (thought: true for
// thinking), functionCall {name, args}, functionResponse {name, response}
// or data the trace has no kind for. The model gives calls no ids (newer
// releases may send one; it is kept): see callID.

// geminiContent is one element of contents, or a candidate's content.
type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

// geminiPart is one part of a content.
type geminiPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	InlineData          json.RawMessage `json:"inlineData"`
	FileData            json.RawMessage `json:"fileData"`
	ExecutableCode      json.RawMessage `json:"executableCode"`
	CodeExecutionResult json.RawMessage `json:"codeExecutionResult"`
}

type geminiRequestBody struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	SystemSnake       *geminiContent  `json:"system_instruction"`
}

// callID is the id of the j-th function call (0-based) of the model
// content at index k of a conversation's contents: "gemini:K.J". The same
// call gets the same id in the response that issues it (k is then the
// number of contents the request held) and in every later request that
// repeats it, so results pair with their call without ids from the model.
func callID(k, j int) string { return fmt.Sprintf("gemini:%d.%d", k, j) }

// isGeminiURL reports whether url is a Gemini API model endpoint.
func isGeminiURL(url string) bool {
	return strings.Contains(url, ":generateContent") || strings.Contains(url, ":streamGenerateContent")
}

// parseGeminiRequest reads a Gemini API request body; nil, nil when it
// has no "contents" (not a model request).
func parseGeminiRequest(body []byte, url string, t *sse.Turn, report func(reason string) error) (*request, error) {
	var rb geminiRequestBody
	if err := json.Unmarshal(body, &rb); err != nil || rb.Contents == nil {
		return nil, nil //nolint:nilerr // not a Gemini request either
	}
	req := &request{gemini: true, contents: len(rb.Contents)}
	sys := rb.SystemInstruction
	if sys == nil {
		sys = rb.SystemSnake
	}
	if sys != nil {
		req.add(&message{system: true, texts: geminiTexts(sys.Parts)})
	}
	var prevCalls []sse.Call // the calls of the model content before
	for k := range rb.Contents {
		c := &rb.Contents[k]
		m, err := geminiMessage(c, k, prevCalls, t)
		req.add(m)
		if err != nil {
			if rerr := report(err.Error()); rerr != nil {
				return nil, rerr
			}
		}
		if m.model {
			prevCalls = m.calls
		}
	}
	return req, nil
}

// geminiTexts joins the text parts of a content.
func geminiTexts(parts []geminiPart) []string {
	var out []string
	for _, p := range parts {
		if p.Text != nil && *p.Text != "" && !p.Thought {
			out = append(out, *p.Text)
		}
	}
	return out
}

// geminiMessage reads content k of a request. Function responses pair
// with the calls of the model content before it (prev): by id when both
// have one, else the first unpaired call of the same name, else the first
// unpaired call.
func geminiMessage(c *geminiContent, k int, prev []sse.Call, t *sse.Turn) (*message, error) {
	m := &message{}
	switch c.Role {
	case "model":
		m.model = true
	case "user", "function", "":
	default:
		return m, fmt.Errorf("content %d: role %q not mapped", k, c.Role)
	}
	used := make([]bool, len(prev))
	var problem error
	for _, p := range c.Parts {
		switch {
		case p.FunctionCall != nil:
			id := p.FunctionCall.ID
			if id == "" {
				id = callID(k, len(m.calls))
			}
			m.calls = append(m.calls, sse.Call{ID: id, Name: p.FunctionCall.Name, Args: p.FunctionCall.Args})
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			id := pairResponse(fr.ID, fr.Name, prev, used)
			if id == "" {
				id = fmt.Sprintf("gemini:%d.r%d", k, len(m.results))
				problem = fmt.Errorf("content %d: functionResponse %q has no function call before it to pair with: given id %s", k, fr.Name, id)
			}
			ok, out := geminiResult(fr.Response)
			m.results = append(m.results, result{id: id, ok: ok, output: out})
		case p.Text != nil && p.Thought:
			t.Ignore(c.Role + " thought")
		case p.Text != nil:
			if *p.Text != "" {
				m.texts = append(m.texts, *p.Text)
			}
		default:
			t.Ignore(c.Role + " " + geminiPartKind(&p))
		}
	}
	return m, problem
}

// pairResponse finds the call a functionResponse answers among prev (see
// geminiMessage) and marks it used; "" if none is left.
func pairResponse(id, name string, prev []sse.Call, used []bool) string {
	pick := -1
	for i := range prev {
		if used[i] {
			continue
		}
		switch {
		case id != "" && prev[i].ID == id:
			pick = i
		case id == "" && prev[i].Name == name && pick < 0:
			pick = i
		}
	}
	if pick < 0 && id != "" {
		return id // the model gave ids: trust them
	}
	if pick < 0 {
		for i := range prev {
			if !used[i] {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return ""
	}
	used[pick] = true
	return prev[pick].ID
}

// geminiResult reads a functionResponse's response object: {"error": …}
// fails with it; {"output": …} or {"result": …} (text, or JSON) succeeds
// with it; anything else succeeds with the object as JSON.
func geminiResult(resp json.RawMessage) (ok bool, text string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(resp, &obj) != nil {
		return true, string(resp)
	}
	asText := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			return buf.String()
		}
		return string(raw)
	}
	if e, found := obj["error"]; found && string(e) != "null" {
		return false, asText(e)
	}
	for _, k := range []string{"output", "result", "content"} {
		if v, found := obj[k]; found {
			return true, asText(v)
		}
	}
	return true, asText(resp)
}

// geminiPartKind names a part the trace has no kind for.
func geminiPartKind(p *geminiPart) string {
	switch {
	case p.InlineData != nil:
		return "inlineData"
	case p.FileData != nil:
		return "fileData"
	case p.ExecutableCode != nil:
		return "executableCode"
	case p.CodeExecutionResult != nil:
		return "codeExecutionResult"
	}
	return "part"
}
