package modelapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// ParseRequest parses one HTTP request: its dialect and kind from the
// method and the request target (path and query), its history, tools and
// schema from the body. It never fails: a body that does not parse gives
// a Request of kind BadRequest whose Err says where and why; a path no
// dialect serves gives kind NotFound.
//
// Routes (POST only; any prefix before them, so /v1/responses and
// /responses both serve):
//
//	…/responses                      Responses
//	…/chat/completions               Chat
//	…/messages                       Anthropic
//	…/messages/count_tokens          Anthropic, CountTokens
//	…/models/M:streamGenerateContent Gemini, streamed (alt=sse: SSE, else a JSON array)
//	…/models/M:generateContent       Gemini, one JSON response
//	…/models/M:countTokens           Gemini, CountTokens
func ParseRequest(method, target string, body []byte) *Request {
	u, err := url.Parse(target)
	if err != nil {
		u = &url.URL{Path: target}
	}
	r := &Request{Method: method, Path: u.Path, Query: u.RawQuery, Body: body, Kind: NotFound}
	if method != "POST" {
		return r
	}
	d, count, stream := route(u.Path)
	if d == "" {
		return r
	}
	r.Dialect = d
	if d == Gemini {
		r.Model = geminiModel(u.Path)
	}
	if count {
		r.Kind = CountTokens
		return r
	}
	if err := parseBody(r, body); err != nil {
		r.Kind, r.Err = BadRequest, err
		return r
	}
	if d == Gemini {
		r.Stream = stream
	}
	r.Kind = Main
	if len(r.Tools) == 0 {
		r.Kind = Side
	}
	nameResults(r)
	return r
}

// route names the dialect of a path, whether it counts tokens, and (for
// Gemini) whether it streams; "" for none.
func route(path string) (d Dialect, count, stream bool) {
	switch {
	case strings.HasSuffix(path, "/responses"):
		return Responses, false, false
	case strings.HasSuffix(path, "/chat/completions"):
		return Chat, false, false
	case strings.HasSuffix(path, "/messages/count_tokens"):
		return Anthropic, true, false
	case strings.HasSuffix(path, "/messages"):
		return Anthropic, false, false
	case !strings.Contains(path, "/models/"):
		return "", false, false
	case strings.HasSuffix(path, ":streamGenerateContent"):
		return Gemini, false, true
	case strings.HasSuffix(path, ":generateContent"):
		return Gemini, false, false
	case strings.HasSuffix(path, ":countTokens"):
		return Gemini, true, false
	}
	return "", false, false
}

// geminiModel is the model of a Gemini path: what follows the last
// "/models/", up to the ":".
func geminiModel(path string) string {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return ""
	}
	m, _, _ := strings.Cut(path[i+len("/models/"):], ":")
	return m
}

// parseBody fills r from its body in r.Dialect.
func parseBody(r *Request, body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("%s request body: empty", r.Dialect)
	}
	var err error
	switch r.Dialect {
	case Responses:
		err = parseResponses(r, body)
	case Chat:
		err = parseChat(r, body)
	case Anthropic:
		err = parseAnthropic(r, body)
	case Gemini:
		err = parseGemini(r, body)
	}
	if err != nil {
		return fmt.Errorf("%s request body: %w", r.Dialect, err)
	}
	return nil
}

// nameResults gives each result without a name the name of the call it
// answers, when the request holds that call.
func nameResults(r *Request) {
	for i := range r.Results {
		if r.Results[i].Name != "" {
			continue
		}
		for _, c := range r.Calls {
			if c.ID == r.Results[i].CallID {
				r.Results[i].Name = c.Name
				break
			}
		}
	}
}

// unknown records a shape the parser does not recognize.
func (r *Request) unknown(format string, args ...any) {
	r.Unknown = append(r.Unknown, fmt.Sprintf(format, args...))
}

// part is a content part of any dialect: its type and text.
type part struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// contentText is the text of a content value: a string, or an array of
// parts whose texts are joined by newlines; with marks, a part without
// text is shown as [type] (as tool results show images), else skipped.
// ok is false when raw is neither.
func contentText(raw json.RawMessage, marks bool) (text string, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != nil:
			out = append(out, *p.Text)
		case marks:
			out = append(out, "["+p.Type+"]")
		}
	}
	return strings.Join(out, "\n"), true
}

// userContent is the user text of a content value (string or parts):
// its text parts that are not app context, joined by newlines.
func userContent(raw json.RawMessage) (text string, ok bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return userText([]string{s}), true
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return "", len(raw) == 0 || string(raw) == "null"
	}
	var texts []string
	for _, p := range parts {
		if p.Text != nil {
			texts = append(texts, *p.Text)
		}
	}
	return userText(texts), true
}

// argsObject is a call's arguments given as JSON text: {} when blank,
// the object compacted, else {"raw": text} (noted as unknown).
func argsObject(r *Request, where, text string) json.RawMessage {
	if strings.TrimSpace(text) == "" {
		return json.RawMessage(`{}`)
	}
	if args, err := objectArgs(json.RawMessage(text)); err == nil {
		return args
	}
	r.unknown("%s: arguments are not a JSON object: kept as {\"raw\": …}", where)
	b, _ := marshal(map[string]string{"raw": text})
	return b
}

// schemaOf is the JSON schema a response format asks for: its schema (or
// {} when it has none) for json_schema, {} for json_object, nil
// otherwise.
func schemaOf(f *responseFormat) json.RawMessage {
	if f == nil {
		return nil
	}
	switch f.Type {
	case "json_schema":
		switch {
		case len(f.Schema) > 0:
			return compactJSON(f.Schema)
		case f.JSONSchema != nil && len(f.JSONSchema.Schema) > 0:
			return compactJSON(f.JSONSchema.Schema)
		}
		return json.RawMessage(`{}`)
	case "json_object":
		return json.RawMessage(`{}`)
	}
	return nil
}

// responseFormat is a structured-output request: Responses text.format,
// Chat response_format, Anthropic output_format / output_config.format.
type responseFormat struct {
	Type       string          `json:"type"`
	Schema     json.RawMessage `json:"schema"`
	JSONSchema *struct {
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// appContextTags wrap the context apps put in user messages: Claude
// Code's system reminders, Gemini CLI's session context, Codex's
// environment context and user instructions.
var appContextTags = []string{"system-reminder", "session_context", "environment_context", "user_instructions"}

// isAppContext reports whether a user text is wholly one of the apps'
// context blocks (<tag>…</tag> of appContextTags): context, not the
// user's words.
func isAppContext(text string) bool {
	t := strings.TrimSpace(text)
	for _, tag := range appContextTags {
		if strings.HasPrefix(t, "<"+tag+">") && strings.HasSuffix(t, "</"+tag+">") {
			return true
		}
	}
	return false
}

// userText joins the texts of a user message that are not app context.
func userText(texts []string) string {
	var keep []string
	for _, t := range texts {
		if !isAppContext(t) {
			keep = append(keep, t)
		}
	}
	return strings.Join(keep, "\n")
}
