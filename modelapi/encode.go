package modelapi

import (
	"fmt"
	"io"
	"net/http"
)

// created is the creation time every response reports (2026-01-01
// 00:00:00 UTC): bodies hold no clock, so the same reply encodes to the
// same bytes.
const created = 1767225600

// defaultModel names the model of a response whose request named none.
const defaultModel = "toolsim"

// meta is what a response says about itself besides the reply: its id,
// the model, and the input tokens its usage reports.
type meta struct {
	id    string
	model string
	inTok int
}

// form is how a response body is written.
type form int

const (
	formSSE   form = iota // server-sent events
	formArray             // a JSON array of chunks (Gemini streamGenerateContent without alt=sse)
	formWhole             // one JSON response (stream off)
)

// Encode writes the streamed body of r in dialect d: the server-sent
// events a client reads (for Gemini, the alt=sse stream), with response
// and item ids derived from respID. r is sent as r.WithIDs(d, respID).
// A reply with a Status is written as the dialect's JSON error body
// instead. The bytes depend only on the arguments (no clock, no
// randomness); the model is reported as "toolsim" and the input tokens
// as 0 (the server reports the request's model and an estimate).
//
// Encode fails on an unknown dialect, a call without a name, args that
// are not a JSON object, or a write error.
func Encode(w io.Writer, d Dialect, r Reply, respID string) error {
	return encodeReply(&sink{w: w}, d, r, meta{id: respID, model: defaultModel}, formSSE)
}

// EncodeJSON writes the whole (non-streamed) JSON body of r in dialect
// d, as Encode does the streamed one: a Responses response object, a
// chat.completion, an Anthropic message, a Gemini GenerateContentResponse.
func EncodeJSON(w io.Writer, d Dialect, r Reply, respID string) error {
	return encodeReply(&sink{w: w}, d, r, meta{id: respID, model: defaultModel}, formWhole)
}

// encodeReply writes r in form f.
func encodeReply(s *sink, d Dialect, r Reply, m meta, f form) error {
	if !d.valid() {
		return fmt.Errorf("encode: unknown dialect %q", d)
	}
	if err := r.validate(); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	r = r.WithIDs(d, m.id)
	switch {
	case r.Status != 0:
		s.json(errorBody(d, r.Status, r.Error))
	case f == formWhole:
		s.json(whole(d, r, m))
	default:
		st := newStreamer(d, s, m, f)
		st.begin()
		st.finish(r)
	}
	return s.err
}

// streamer writes one streamed response in parts: begin, any number of
// text deltas, then finish with the rest of the reply (more text, then
// the calls, then the end events).
type streamer interface {
	begin()
	text(delta string)
	finish(r Reply)
}

func newStreamer(d Dialect, s *sink, m meta, f form) streamer {
	switch d {
	case Responses:
		return &responsesStream{s: s, m: m}
	case Chat:
		return &chatStream{s: s, m: m}
	case Anthropic:
		return &anthropicStream{s: s, m: m}
	}
	return &geminiStream{s: s, m: m, array: f == formArray}
}

// whole is the non-streamed body of r.
func whole(d Dialect, r Reply, m meta) any {
	switch d {
	case Responses:
		return responsesWhole(r, m)
	case Chat:
		return chatWhole(r, m)
	case Anthropic:
		return anthropicWhole(r, m)
	}
	return geminiWhole(r, m)
}

// sink writes events to w, flushing after each, and keeps the first
// error (later writes are skipped).
type sink struct {
	w     io.Writer
	flush func()
	err   error
}

// write writes b as one unit and flushes.
func (s *sink) write(b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("write the response: %w", err)
		return
	}
	if s.flush != nil {
		s.flush()
	}
}

// sse writes one server-sent event: an "event:" line when name is set,
// then data as one "data:" line of JSON.
func (s *sink) sse(name string, data any) {
	b, err := marshal(data)
	if err != nil {
		s.fail(err)
		return
	}
	var out []byte
	if name != "" {
		out = append(out, "event: "+name+"\n"...)
	}
	out = append(out, "data: "...)
	out = append(out, b...)
	s.write(append(out, "\n\n"...))
}

// json writes v as a JSON body.
func (s *sink) json(v any) {
	b, err := marshal(v)
	if err != nil {
		s.fail(err)
		return
	}
	s.write(b)
}

func (s *sink) fail(err error) {
	if s.err == nil {
		s.err = fmt.Errorf("encode the response: %w", err)
	}
}

// outTokens estimates the output tokens of a reply: about four bytes a
// token, at least one.
func outTokens(text string, calls []Call) int {
	n := len(text)
	for _, c := range calls {
		n += len(c.Name) + len(c.Args)
	}
	return n/4 + 1
}

// argString is a call's args as compact JSON text ({} when empty).
func argString(c Call) string {
	args, err := objectArgs(c.Args)
	if err != nil {
		return "{}"
	}
	return string(args)
}

// errorBody is the JSON error body of an HTTP error in dialect d.
func errorBody(d Dialect, status int, msg string) any {
	if msg == "" {
		msg = http.StatusText(status)
		if status == 529 {
			msg = "Overloaded"
		}
	}
	switch d {
	case Anthropic, "":
		return o("type", "error", "error", o("type", anthropicErrorType(status), "message", msg))
	case Gemini:
		return o("error", o("code", status, "message", msg, "status", geminiStatus(status)))
	}
	var code any
	if status == 429 {
		code = "rate_limit_exceeded"
	}
	return o("error", o("message", msg, "type", openAIErrorType(status), "param", nil, "code", code))
}

func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func openAIErrorType(status int) string {
	switch {
	case status == 404:
		return "not_found_error"
	case status == 429:
		return "requests"
	case status < 500:
		return "invalid_request_error"
	}
	return "server_error"
}

func geminiStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503, 529:
		return "UNAVAILABLE"
	}
	return "INTERNAL"
}
