package modelapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// exchange writes the answer to one request: an error body, a whole JSON
// body, or a stream begun by the first partial and ended by the final
// reply.
type exchange struct {
	w    http.ResponseWriter
	req  *Request // the record (read only here)
	m    meta
	f    form
	sink *sink
	st   streamer // set once the stream began
}

// newExchange prepares the answer to req on w: the response id and form
// from the request, the model it named, an input token estimate.
func newExchange(w http.ResponseWriter, req *Request) *exchange {
	model := req.Model
	if model == "" {
		model = defaultModel
	}
	x := &exchange{w: w, req: req, m: meta{id: responseID(req), model: model, inTok: len(req.Body)/4 + 1}}
	switch {
	case !req.Stream:
		x.f = formWhole
	case req.Dialect == Gemini && !strings.Contains("&"+req.Query+"&", "&alt=sse&"):
		x.f = formArray
	}
	x.sink = &sink{w: w}
	if fl, ok := w.(http.Flusher); ok {
		x.sink.flush = fl.Flush
	}
	return x
}

// responseID is the id of the response to req, in the dialect's style,
// numbered by the request's arrival.
func responseID(req *Request) string {
	switch req.Dialect {
	case Responses:
		return fmt.Sprintf("resp_toolsim_%d", req.Seq)
	case Chat:
		return fmt.Sprintf("chatcmpl-toolsim-%d", req.Seq)
	case Anthropic:
		return fmt.Sprintf("msg_toolsim_%d", req.Seq)
	}
	return fmt.Sprintf("toolsim-%d", req.Seq)
}

// started reports whether the stream began (the status is sent).
func (x *exchange) started() bool { return x.st != nil }

// start sends the stream's headers and first events, once.
func (x *exchange) start() {
	if x.st != nil {
		return
	}
	h := x.w.Header()
	if x.f == formSSE {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Content-Type", "application/json")
	}
	x.w.WriteHeader(http.StatusOK)
	x.st = newStreamer(x.req.Dialect, x.sink, x.m, x.f)
	x.st.begin()
}

// partial streams a text delta, beginning the stream if need be.
func (x *exchange) partial(text string) error {
	if x.f == formWhole {
		return errors.New("the request is not streamed: a partial answer needs a streamed request")
	}
	x.start()
	x.st.text(text)
	return x.gone()
}

// final writes the rest of the answer: r (with its ids filled) ends the
// stream, or is the whole body, or (Status) the error body.
func (x *exchange) final(r Reply) (Reply, error) {
	r = r.WithIDs(x.req.Dialect, x.m.id)
	switch {
	case r.Status != 0 && x.started():
		return r, errors.New("an HTTP error reply must come before any partial answer")
	case r.Status != 0:
		x.json(r.Status, errorBody(x.req.Dialect, r.Status, r.Error))
	case x.f == formWhole:
		x.json(http.StatusOK, whole(x.req.Dialect, r, x.m))
	default:
		x.start()
		x.st.finish(r)
	}
	return r, x.gone()
}

// json writes a whole JSON body with status.
func (x *exchange) json(status int, v any) {
	x.w.Header().Set("Content-Type", "application/json")
	x.w.WriteHeader(status)
	x.sink.json(v)
}

// gone is the sink's write error as ErrGone: the client went away.
func (x *exchange) gone() error {
	if x.sink.err != nil {
		return fmt.Errorf("%w: %v", ErrGone, x.sink.err)
	}
	return nil
}
