package modelapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Dialect is a model API's wire format.
type Dialect string

// The four dialects the server speaks.
const (
	// Responses is the OpenAI Responses API: POST …/responses (Codex CLI).
	Responses Dialect = "responses"
	// Chat is the OpenAI Chat Completions API: POST …/chat/completions
	// (opencode through @ai-sdk/openai-compatible).
	Chat Dialect = "chat"
	// Anthropic is the Anthropic Messages API: POST …/messages (Claude
	// Code).
	Anthropic Dialect = "anthropic"
	// Gemini is the Gemini API: POST …/models/{model}:streamGenerateContent
	// and :generateContent (Gemini CLI).
	Gemini Dialect = "gemini"
)

// Dialects lists the four dialects.
var Dialects = []Dialect{Responses, Chat, Anthropic, Gemini}

// valid reports whether d is one of Dialects.
func (d Dialect) valid() bool {
	switch d {
	case Responses, Chat, Anthropic, Gemini:
		return true
	}
	return false
}

// Call is a function call the model makes: in a Reply, one the server
// sends; in a Request, one the request's history holds.
type Call struct {
	// ID links the call to its result. In a Reply, an empty ID is filled
	// by Reply.WithIDs (every dialect but Gemini, whose calls may go
	// without one).
	ID string
	// Name is the tool's name as the app offered it (for Responses, the
	// bare name of a namespaced tool).
	Name string
	// Namespace is the Responses "namespace" member of the call (Codex
	// offers MCP tools in namespaces such as "mcp__server"); the other
	// dialects have no namespaces and ignore it.
	Namespace string
	// Args is a JSON object; nil means {}.
	Args json.RawMessage
}

// Result is a tool result a request carries back to the model.
type Result struct {
	// CallID is the ID of the call it answers.
	CallID string
	// Name is the call's tool name: the request's own (Gemini), or the
	// name of the call with CallID in the request's history; "" when that
	// call is absent.
	Name string
	// Text is the result content as text: a string, or the text parts
	// joined by newlines (other parts shown as [type]).
	Text string
	// IsError is set for a failed result (Anthropic is_error, a Gemini
	// response {"error": …}, a Responses output {"success": false}).
	IsError bool
}

// Reply is one model response: optional text, then function calls, or
// an HTTP error.
type Reply struct {
	// Text is streamed first (nothing when empty).
	Text string
	// Calls follow the text, in order. A reply with calls ends as a tool
	// use (stop_reason tool_use, finish_reason tool_calls); one without
	// ends the turn.
	Calls []Call
	// Status, when 400 or more, makes the reply an HTTP error with that
	// status and a body in the dialect's error shape (e.g. 529 with an
	// Anthropic overloaded_error); Text and Calls are then unused.
	Status int
	// Error is the error message of a Status reply ("" gives a default).
	Error string
}

// WithIDs returns r with an ID for every call that has none, derived
// from respID and the call's position i: "call_RESPID_i" (Responses,
// Chat) or "toolu_RESPID_i" (Anthropic), RESPID reduced to letters,
// digits and underscores. Gemini calls are left without: the stream
// then carries no id, as the Gemini API often does. Encode and
// Pending.Respond send r.WithIDs.
func (r Reply) WithIDs(d Dialect, respID string) Reply {
	if d == Gemini {
		return r
	}
	prefix := "call_"
	if d == Anthropic {
		prefix = "toolu_"
	}
	var calls []Call
	for i, c := range r.Calls {
		if c.ID == "" {
			if calls == nil {
				calls = append([]Call(nil), r.Calls...)
			}
			calls[i].ID = fmt.Sprintf("%s%s_%d", prefix, idPart(respID), i)
		}
	}
	if calls != nil {
		r.Calls = calls
	}
	return r
}

// idPart keeps the letters, digits and underscores of s.
func idPart(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			return r
		}
		return -1
	}, s)
}

// validate checks that every call has a name and args that are a JSON
// object (or nothing).
func (r Reply) validate() error {
	if r.Status != 0 && (r.Status < 400 || r.Status > 599) {
		return fmt.Errorf("reply status %d: want 0 (a model response) or an HTTP error status 400-599", r.Status)
	}
	for i, c := range r.Calls {
		if c.Name == "" {
			return fmt.Errorf("reply call %d (id %q): no name", i, c.ID)
		}
		if _, err := objectArgs(c.Args); err != nil {
			return fmt.Errorf("reply call %d (%s): %w", i, c.Name, err)
		}
	}
	return nil
}

// objectArgs returns args compacted, {} when empty; an error when they
// are not a JSON object.
func objectArgs(args json.RawMessage) (json.RawMessage, error) {
	if len(strings.TrimSpace(string(args))) == 0 {
		return json.RawMessage(`{}`), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("args %.60q are not a JSON object", args)
	}
	return compactJSON(args), nil
}

// Kind is what the server made of a request.
type Kind string

// The kinds of requests.
const (
	// Main is a model request that offers tools: it waits for the
	// controller (Server.Next).
	Main Kind = "main"
	// Side is a model request that offers no tools (a title, a summary, a
	// next-speaker check): the server answers it itself.
	Side Kind = "side"
	// CountTokens is a token-counting request (Anthropic
	// /v1/messages/count_tokens, Gemini :countTokens), answered with an
	// estimate.
	CountTokens Kind = "count_tokens"
	// NotFound is a request for a path the server does not serve,
	// answered 404.
	NotFound Kind = "not_found"
	// BadRequest is a model request whose body does not parse, answered
	// 400; Request.Err says why.
	BadRequest Kind = "bad_request"
)

// Request is one HTTP request the server received, parsed.
type Request struct {
	// Seq is the 1-based arrival number (it keeps counting across Reset).
	Seq int
	// Dialect is the dialect of the path; "" for a path none serves.
	Dialect Dialect
	Kind    Kind
	Method  string
	Path    string // the URL path
	Query   string // the raw query, without "?"
	Body    []byte
	// Model is the model the request names (the body's "model", or the
	// Gemini path's).
	Model string
	// Stream is set when the answer is to be streamed (SSE, or a Gemini
	// JSON array without alt=sse).
	Stream bool
	// Tools are the names of the tools offered, in order. A Responses
	// namespace lists each of its tools as NAMESPACE + "." + NAME;
	// a tool without a name (web_search, local_shell) by its type; a
	// Gemini tool that is not a function declaration (googleSearch) by
	// its key.
	Tools []string
	// Calls are the function calls in the request's history, in order.
	Calls []Call
	// Results are the tool results in the request, in order.
	Results []Result
	// LastUser is the text of the last user message that holds text
	// (text parts joined by newlines). Tool results are not user text,
	// nor is app context: a text part wholly wrapped in
	// <system-reminder> (Claude Code), <session_context> (Gemini CLI),
	// <environment_context> or <user_instructions> (Codex).
	LastUser string
	// Schema is the JSON schema the request asks the answer to follow
	// ({} for "any JSON object"); nil when it asks for plain text.
	Schema json.RawMessage
	// Unknown lists what the parser did not recognize (an input item
	// type, a content block, a tool shape), so that a new client shape
	// shows instead of vanishing.
	Unknown []string
	// Err is why the body did not parse (Kind BadRequest); nil when it
	// did.
	Err error

	// Status is the HTTP status answered; 0 while the request waits.
	Status int
	// Reply is what the request was answered with (nil while it waits,
	// and for count, not-found and bad requests).
	Reply *Reply
	// Gone is set when the client went away before the answer ended.
	Gone bool
	// TimedOut is set when no answer came within Options.Timeout.
	TimedOut bool
}

// The errors Pending.Respond, Pending.RespondPartial and Server.Next
// return; test them with errors.Is.
var (
	// ErrGone: the client disconnected (the app cancelled the request)
	// before or while the answer was written.
	ErrGone = errors.New("the client went away")
	// ErrTimedOut: the request waited longer than Options.Timeout and was
	// answered with HTTP 500.
	ErrTimedOut = errors.New("the request timed out unanswered")
	// ErrAnswered: the request already had its whole answer.
	ErrAnswered = errors.New("the request was already answered")
	// ErrClosed: the server is closed (or Reset dropped the request).
	ErrClosed = errors.New("the model API server is closed")
	// ErrNoRequest: Next waited its whole timeout and no main request
	// came.
	ErrNoRequest = errors.New("no main request came")
)
