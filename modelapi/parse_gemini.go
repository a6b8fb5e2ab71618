package modelapi

import (
	"encoding/json"
	"fmt"
	"sort"
)

// geminiBody is a generateContent / streamGenerateContent request (the
// REST API accepts camelCase and snake_case member names).
type geminiBody struct {
	Contents    []geminiContent              `json:"contents"`
	Tools       []map[string]json.RawMessage `json:"tools"`
	GenConfig   *geminiGenConfig             `json:"generationConfig"`
	GenConfigSC *geminiGenConfig             `json:"generation_config"`
}

type geminiGenConfig struct {
	MimeType         string          `json:"responseMimeType"`
	MimeTypeSC       string          `json:"response_mime_type"`
	Schema           json.RawMessage `json:"responseSchema"`
	SchemaSC         json.RawMessage `json:"response_schema"`
	JSONSchema       json.RawMessage `json:"responseJsonSchema"`
	JSONSchemaSC     json.RawMessage `json:"response_json_schema"`
	JSONSchemaLegacy json.RawMessage `json:"_responseJsonSchema"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

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
}

func parseGemini(r *Request, body []byte) error {
	var b geminiBody
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	if b.Contents == nil {
		return fmt.Errorf("no contents")
	}
	r.Schema = geminiSchema(b.GenConfig, b.GenConfigSC)
	geminiTools(r, b.Tools)
	var prev []Call // the calls of the last model content
	for k := range b.Contents {
		c := &b.Contents[k]
		switch c.Role {
		case "model":
			prev = geminiCalls(r, k, c.Parts)
		case "user", "function", "":
			geminiUser(r, k, c, prev)
		default:
			r.unknown("contents[%d]: role %q", k, c.Role)
		}
	}
	return nil
}

// geminiSchema is the JSON schema of a generationConfig that asks for
// JSON (responseJsonSchema, else responseSchema, else {} for a JSON mime
// type without one).
func geminiSchema(cfgs ...*geminiGenConfig) json.RawMessage {
	for _, g := range cfgs {
		if g == nil {
			continue
		}
		for _, s := range []json.RawMessage{g.JSONSchema, g.JSONSchemaSC, g.JSONSchemaLegacy, g.Schema, g.SchemaSC} {
			if len(s) > 0 && string(s) != "null" {
				return compactJSON(s)
			}
		}
		if g.MimeType == "application/json" || g.MimeTypeSC == "application/json" {
			return json.RawMessage(`{}`)
		}
	}
	return nil
}

// geminiTools records the function declarations' names, and other tools
// (googleSearch, codeExecution) by their key.
func geminiTools(r *Request, tools []map[string]json.RawMessage) {
	for i, t := range tools {
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k != "functionDeclarations" && k != "function_declarations" {
				r.Tools = append(r.Tools, k)
				continue
			}
			var decls []struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(t[k], &decls) != nil {
				r.unknown("tools[%d].%s: not a list of declarations", i, k)
			}
			for _, d := range decls {
				r.Tools = append(r.Tools, d.Name)
			}
		}
	}
}

// geminiCalls records the function calls of model content k. A call
// without an id gets "gemini:K.J" (J its place among the content's
// calls), the id formats/vcr gives it, the same in every request that
// repeats the content.
func geminiCalls(r *Request, k int, parts []geminiPart) []Call {
	var calls []Call
	for _, p := range parts {
		if p.FunctionCall == nil {
			continue
		}
		id := p.FunctionCall.ID
		if id == "" {
			id = fmt.Sprintf("gemini:%d.%d", k, len(calls))
		}
		args, err := objectArgs(p.FunctionCall.Args)
		if err != nil {
			r.unknown("contents[%d]: functionCall %s args are not a JSON object", k, p.FunctionCall.Name)
			args = json.RawMessage(`{}`)
		}
		calls = append(calls, Call{ID: id, Name: p.FunctionCall.Name, Args: args})
	}
	r.Calls = append(r.Calls, calls...)
	return calls
}

// geminiUser records user content k: its text and its function
// responses, paired with the calls of the model content before it
// (prev).
func geminiUser(r *Request, k int, c *geminiContent, prev []Call) {
	used := make([]bool, len(prev))
	var texts []string
	for _, p := range c.Parts {
		switch {
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			id := pairCall(fr.ID, fr.Name, prev, used)
			if id == "" {
				r.unknown("contents[%d]: functionResponse %q answers no call before it", k, fr.Name)
			}
			isErr, text := geminiResult(fr.Response)
			r.Results = append(r.Results, Result{CallID: id, Name: fr.Name, Text: text, IsError: isErr})
		case p.Text != nil && !p.Thought && *p.Text != "":
			texts = append(texts, *p.Text)
		}
	}
	if text := userText(texts); text != "" && c.Role != "function" {
		r.LastUser = text
	}
}

// pairCall finds the call a functionResponse answers among prev and marks
// it used: the one with its id; without an id, the first unused one with
// its name, else the first unused one. An id matching no call is kept
// as it is; "" when nothing is left to pair with.
func pairCall(id, name string, prev []Call, used []bool) string {
	if id != "" {
		for i := range prev {
			if !used[i] && prev[i].ID == id {
				used[i] = true
				break
			}
		}
		return id
	}
	pick := -1
	for i := range prev {
		if !used[i] && prev[i].Name == name {
			pick = i
			break
		}
	}
	for i := range prev {
		if pick < 0 && !used[i] {
			pick = i
		}
	}
	if pick < 0 {
		return ""
	}
	used[pick] = true
	return prev[pick].ID
}

// geminiResult reads a functionResponse's response: {"error": …} is a
// failure with that text; {"output": …}, {"result": …} or {"content": …}
// a success with it; anything else a success with the JSON itself.
func geminiResult(resp json.RawMessage) (isErr bool, text string) {
	var m map[string]json.RawMessage
	if json.Unmarshal(resp, &m) != nil {
		return false, string(compactJSON(resp))
	}
	asText := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(compactJSON(raw))
	}
	if e, ok := m["error"]; ok && string(e) != "null" {
		return true, asText(e)
	}
	for _, k := range []string{"output", "result", "content"} {
		if v, ok := m[k]; ok {
			return false, asText(v)
		}
	}
	return false, string(compactJSON(resp))
}
