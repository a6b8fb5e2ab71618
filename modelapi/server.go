package modelapi

import (
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is how long a main request waits for its answer when
// Options.Timeout is 0.
const DefaultTimeout = 60 * time.Second

// maxBody bounds a request body.
const maxBody = 64 << 20

// Options configure a Server.
type Options struct {
	// Timeout is how long a main request waits for Respond (or between
	// two parts of a partial answer) before it is answered HTTP 500 and
	// recorded as timed out; 0 means DefaultTimeout.
	Timeout time.Duration
	// Log, when set, is told of every request and how it ended, a line
	// each.
	Log io.Writer
}

// Server is the fake model API: an HTTP server on 127.0.0.1 that
// records every request, answers side requests itself and hands main
// requests to the controller (Next). It is safe for concurrent use.
type Server struct {
	opts   Options
	ln     net.Listener
	srv    *http.Server
	closed chan struct{}
	once   sync.Once
	active sync.WaitGroup // running handlers

	mu     sync.Mutex
	seq    int
	reqs   []*Request // the records, in arrival order
	queue  []*Pending // main requests not yet taken by Next
	notify chan struct{}
	logMu  sync.Mutex
}

// Start starts a server on 127.0.0.1 on a free port.
func Start(o Options) (*Server, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("modelapi: listen on 127.0.0.1: %w", err)
	}
	s := &Server{opts: o, ln: ln, closed: make(chan struct{}), notify: make(chan struct{}, 1)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 30 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // Serve returns ErrServerClosed at Close
	return s, nil
}

// URL is the server's base URL, http://127.0.0.1:PORT (no trailing
// slash): point the app's API base at it (with /v1 or /v1beta as the app
// expects).
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server: requests still waiting are dropped (their
// Respond returns ErrClosed), Next returns ErrClosed. It waits for the
// handlers to return.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.srv.Close()
		s.active.Wait()
	})
}

// Requests returns every request so far, main and side, in arrival
// order: copies, safe to keep and read while the server runs.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Request, len(s.reqs))
	for i, r := range s.reqs {
		c := *r
		out[i] = &c
	}
	return out
}

// Reset forgets the requests recorded so far (Seq keeps counting) and
// drops the main requests Next has not returned yet, answering them HTTP
// 500: call it between scenarios, before the next app starts. Requests
// Next already returned are the controller's to answer.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
	for _, p := range s.queue {
		close(p.cancel)
	}
	s.queue = nil
}

// Next returns the oldest main request that waits for an answer and that
// no Next returned before, waiting up to timeout for one to come.
// Requests that ended meanwhile (the client went away, timed out) are
// skipped; Requests still shows them. It fails with ErrNoRequest after
// timeout, ErrClosed once the server is closed.
func (s *Server) Next(timeout time.Duration) (*Pending, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		if p := s.take(); p != nil {
			return p, nil
		}
		select {
		case <-s.notify:
		case <-timer.C:
			return nil, fmt.Errorf("modelapi: next request: %w within %s", ErrNoRequest, timeout)
		case <-s.closed:
			return nil, fmt.Errorf("modelapi: next request: %w", ErrClosed)
		}
	}
}

// take pops the oldest queued request still waiting, or nil.
func (s *Server) take() *Pending {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) > 0 {
		p := s.queue[0]
		s.queue = s.queue[1:]
		select {
		case <-p.done:
			continue
		default:
		}
		if len(s.queue) > 0 {
			s.signal()
		}
		return p
	}
	return nil
}

// signal wakes one Next.
func (s *Server) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// record appends req to the records, numbering it.
func (s *Server) record(req *Request) {
	s.mu.Lock()
	s.seq++
	req.Seq = s.seq
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
}

// update changes a record under the lock.
func (s *Server) update(req *Request, fn func(r *Request)) {
	s.mu.Lock()
	fn(req)
	s.mu.Unlock()
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opts.Log, "modelapi: "+format+"\n", args...)
}

// ServeHTTP implements http.Handler: it records the request and answers
// it by its kind.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	s.active.Add(1)
	defer s.active.Done()
	body, readErr := readBody(w, hr)
	req := ParseRequest(hr.Method, hr.URL.RequestURI(), body)
	if readErr != nil && req.Kind != NotFound {
		req.Kind, req.Err = BadRequest, readErr
	}
	s.record(req)
	s.logf("#%d %s %s: %s", req.Seq, req.Method, hr.URL.RequestURI(), describe(req))
	switch req.Kind {
	case NotFound:
		s.answerJSON(w, req, http.StatusNotFound, errorBody("", http.StatusNotFound,
			fmt.Sprintf("toolsim serves no model API at %s %s", req.Method, req.Path)))
	case BadRequest:
		s.answerJSON(w, req, http.StatusBadRequest, errorBody(req.Dialect, http.StatusBadRequest, req.Err.Error()))
	case CountTokens:
		n := len(body)/4 + 1
		if req.Dialect == Gemini {
			s.answerJSON(w, req, http.StatusOK, o("totalTokens", n))
		} else {
			s.answerJSON(w, req, http.StatusOK, o("input_tokens", n))
		}
	case Side:
		s.answerSide(w, req)
	default:
		s.serveMain(w, hr, req)
	}
}

// readBody reads the request body (at most maxBody bytes, gzip
// inflated).
func readBody(w http.ResponseWriter, hr *http.Request) ([]byte, error) {
	r := io.Reader(http.MaxBytesReader(w, hr.Body, maxBody))
	switch enc := strings.ToLower(hr.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("request body: gzip: %w", err)
		}
		defer zr.Close()
		r = io.LimitReader(zr, maxBody)
	default:
		b, _ := io.ReadAll(r)
		return b, fmt.Errorf("request body: content encoding %q not supported (identity and gzip are)", enc)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return b, fmt.Errorf("request body: %w", err)
	}
	return b, nil
}

// answerJSON answers with a JSON body and records the status.
func (s *Server) answerJSON(w http.ResponseWriter, req *Request, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := marshal(v)
	w.Write(b) //nolint:errcheck // the client may be gone; nothing to do
	s.update(req, func(r *Request) { r.Status = status })
}

// answerSide answers a side request: JSON valid for its schema when it
// asks for JSON, else the plain text "toolsim".
func (s *Server) answerSide(w http.ResponseWriter, req *Request) {
	reply := Reply{Text: sideText}
	if req.Schema != nil {
		reply.Text = string(SampleJSON(req.Schema))
	}
	x := newExchange(w, req)
	sent, err := x.final(reply)
	s.update(req, func(r *Request) {
		r.Status, r.Reply, r.Gone = http.StatusOK, &sent, err != nil
	})
	s.logf("#%d answered as a side request: %q", req.Seq, reply.Text)
}

// describe sums a parsed request up for the log.
func describe(r *Request) string {
	switch r.Kind {
	case Main, Side:
		return fmt.Sprintf("%s %s model=%q stream=%t tools=%d calls=%d results=%d last_user=%.60q unknown=%d",
			r.Dialect, r.Kind, r.Model, r.Stream, len(r.Tools), len(r.Calls), len(r.Results), r.LastUser, len(r.Unknown))
	case BadRequest:
		return fmt.Sprintf("%s %s: %v", r.Dialect, r.Kind, r.Err)
	}
	return fmt.Sprintf("%s %s", r.Dialect, r.Kind)
}
