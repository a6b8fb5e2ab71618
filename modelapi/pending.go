package modelapi

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Pending is a main request waiting for the controller's answer. Answer
// it with Respond, or stream text first with RespondPartial and end with
// Respond.
type Pending struct {
	// Request is the request as parsed on arrival (a copy: its Status,
	// Reply, Gone and TimedOut stay unset; Server.Requests has them).
	Request *Request

	rec    *Request // the server's record
	acts   chan action
	done   chan struct{} // closed when the exchange ended
	cancel chan struct{} // closed by Reset
	mu     sync.Mutex
	end    error // why it ended: nil (answered), ErrGone, ErrTimedOut, ErrClosed
}

// action is one step of the controller's answer, carried to the handler.
type action struct {
	final bool
	text  string // a partial's delta
	reply Reply  // the final reply
	res   chan error
}

// Respond answers the request with r: the whole stream (or JSON body,
// or HTTP error when r.Status is set), after any partial text. It
// returns once the answer is written. Errors: r invalid (a call without
// a name, args that are not a JSON object; the request keeps waiting);
// ErrGone when the client went away; ErrTimedOut, ErrAnswered, ErrClosed
// when the request already ended.
func (p *Pending) Respond(r Reply) error {
	if err := r.validate(); err != nil {
		return p.wrap(err)
	}
	return p.send(action{final: true, reply: r})
}

// RespondPartial streams text to a streamed request and keeps the stream
// open: the app shows the text while the request is still answering.
// Respond ends it (its Reply.Text continues the text). It fails on a
// request that is not streamed, and as Respond does when the request
// ended.
func (p *Pending) RespondPartial(text string) error {
	if !p.Request.Stream {
		return p.wrap(errors.New("partial answer: the request is not streamed"))
	}
	return p.send(action{text: text})
}

// Done is closed when the request's exchange ended: answered, the client
// gone, timed out, or dropped. By then Server.Requests records how.
func (p *Pending) Done() <-chan struct{} { return p.done }

func (p *Pending) send(a action) error {
	a.res = make(chan error, 1)
	select {
	case p.acts <- a:
		if err := <-a.res; err != nil {
			return p.wrap(err)
		}
		return nil
	case <-p.done:
		p.mu.Lock()
		err := p.end
		p.mu.Unlock()
		if err == nil {
			err = ErrAnswered
		}
		return p.wrap(err)
	}
}

// wrap names the request in err.
func (p *Pending) wrap(err error) error {
	r := p.Request
	return fmt.Errorf("modelapi: request %d (%s %s): %w", r.Seq, r.Method, r.Path, err)
}

// serveMain queues a main request for Next and answers it as the
// controller says, until the answer ends, the client goes, the request
// times out, or the server closes.
func (s *Server) serveMain(w http.ResponseWriter, hr *http.Request, req *Request) {
	snapshot := *req
	p := &Pending{Request: &snapshot, rec: req, acts: make(chan action),
		done: make(chan struct{}), cancel: make(chan struct{})}
	s.mu.Lock()
	s.queue = append(s.queue, p)
	s.signal()
	s.mu.Unlock()
	s.logf("#%d waits for the controller", req.Seq)
	x := newExchange(w, req)
	end := s.converse(hr, p, x)
	p.mu.Lock()
	p.end = end
	p.mu.Unlock()
	// The record first: whoever Done wakes reads it whole (a test once
	// read Gone unset just after Done).
	s.update(req, func(r *Request) {
		r.Gone = errors.Is(end, ErrGone)
		r.TimedOut = errors.Is(end, ErrTimedOut)
	})
	close(p.done)
	s.logf("#%d ended: %s", req.Seq, endWords(end))
}

// converse carries out the controller's actions on x; it returns why the
// exchange ended (nil: answered).
func (s *Server) converse(hr *http.Request, p *Pending, x *exchange) error {
	timer := time.NewTimer(s.opts.Timeout)
	defer timer.Stop()
	for {
		select {
		case a := <-p.acts:
			end, over := s.act(hr, p, x, a)
			if over {
				return end
			}
			timer.Reset(s.opts.Timeout)
		case <-hr.Context().Done():
			return ErrGone
		case <-timer.C:
			s.abandon(x, p.rec, fmt.Sprintf("toolsim: no answer within %s", s.opts.Timeout))
			return ErrTimedOut
		case <-p.cancel:
			s.abandon(x, p.rec, "toolsim: the request was dropped (Reset)")
			return ErrClosed
		case <-s.closed:
			return ErrClosed
		}
	}
}

// act carries out one action; over is set when the exchange ended (end
// says why: nil answered, ErrGone).
func (s *Server) act(hr *http.Request, p *Pending, x *exchange, a action) (end error, over bool) {
	if hr.Context().Err() != nil {
		a.res <- ErrGone
		return ErrGone, true
	}
	if !a.final {
		err := x.partial(a.text)
		s.update(p.rec, func(r *Request) { r.Status = http.StatusOK })
		a.res <- err
		return err, errors.Is(err, ErrGone)
	}
	sent, err := x.final(a.reply)
	a.res <- err
	if err != nil && !errors.Is(err, ErrGone) {
		return nil, false // a reply the exchange cannot send: keep waiting
	}
	status := http.StatusOK
	if sent.Status != 0 {
		status = sent.Status
	}
	s.update(p.rec, func(r *Request) { r.Status, r.Reply = status, &sent })
	return err, true
}

// abandon answers HTTP 500 with msg if nothing was sent yet (a begun
// stream is just cut), and records it.
func (s *Server) abandon(x *exchange, req *Request, msg string) {
	if x.started() {
		return
	}
	x.json(http.StatusInternalServerError, errorBody(req.Dialect, http.StatusInternalServerError, msg))
	s.update(req, func(r *Request) { r.Status = http.StatusInternalServerError })
}

func endWords(end error) string {
	switch {
	case end == nil:
		return "answered"
	case errors.Is(end, ErrGone):
		return "the client went away"
	case errors.Is(end, ErrTimedOut):
		return "timed out unanswered"
	}
	return "dropped: " + end.Error()
}
