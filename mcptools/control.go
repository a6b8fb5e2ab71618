package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Cancel is one notifications/cancelled the server received.
type Cancel struct {
	// Session is the Mcp-Session-Id the notification came in on.
	Session string
	// ID is the notification's requestId, in the form of Call.ID.
	ID string
	// Reason is the notification's reason, "" when it gave none.
	Reason string
	// Call is the call it named, nil when the id matched no call of this
	// session since the last Reset.
	Call *Call
	// Unreleased reports whether the controller had not released Call (by
	// Finish, Reset or Close) when the notification arrived; false when
	// the cancel raced a release and lost.
	Unreleased bool
}

// handle is every tool's SDK handler: it registers the call and blocks
// until the call is released or its contexts end.
func (s *Server) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := s.register(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.handlers.Done()
	defer close(c.done)
	carrier := s.carriers.take(carrierKey{session: c.Session, id: c.ID})
	var o Outcome
	select {
	case o = <-c.release:
	case <-ctx.Done():
		// In go-sdk v1.8.0 only a notifications/cancelled ends a tool
		// handler's context with no cause of its own (Cause is exactly
		// context.Canceled): mcp/transport.go:269 calls
		// jsonrpc2.Connection.Cancel, internal/jsonrpc2/conn.go:461
		// cancels with nil. A broken read or write cancels with its error
		// (conn.go:559, conn.go:781).
		if cause := context.Cause(ctx); cause == context.Canceled {
			c.cancelledBySDK()
		} else {
			s.drop(c, fmt.Errorf("handler context ended: %w", cause))
		}
		o = <-c.release
	case <-carrier.Done():
		s.drop(c, fmt.Errorf("HTTP request ended: %w", context.Cause(carrier)))
		o = <-c.release
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: o.Text}}, IsError: !o.OK}, nil
}

// drop marks c dropped and logs it.
func (s *Server) drop(c *Call, cause error) {
	if !c.markDropped(cause) {
		return
	}
	s.log.printf("dropped id=%s session=%s tool=%s cause=%q", c.ID, c.Session, c.Tool, cause)
}

// register makes the Call for req and queues it for Next.
func (s *Server) register(ctx context.Context, req *mcp.CallToolRequest) (*Call, error) {
	p := req.Params
	id, ok := p.Meta[metaKeyID].(string)
	if !ok || id == "" {
		return nil, fmt.Errorf("mcptools: tools/call %q arrived without the JSON-RPC id the HTTP layer stamps into _meta[%q]", p.Name, metaKeyID)
	}
	c := &Call{
		ID:            id,
		Session:       req.Session.ID(),
		Tool:          p.Name,
		Args:          append(json.RawMessage(nil), p.Arguments...),
		CallArg:       callArg(p.Arguments),
		ProgressToken: p.GetProgressToken(),
		srv:           s,
		ctx:           ctx,
		session:       req.Session,
		release:       make(chan Outcome, 1),
		done:          make(chan struct{}),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("mcptools: tools/call %s (%s): %w", id, p.Name, ErrClosed)
	}
	s.handlers.Add(1)
	s.seq++
	c.Seq = s.seq
	s.calls = append(s.calls, c)
	s.queue = append(s.queue, c)
	close(s.arrived)
	s.arrived = make(chan struct{})
	s.log.printf("call id=%s session=%s tool=%s call=%q seq=%d progress=%t args=%s",
		c.ID, c.Session, c.Tool, c.CallArg, c.Seq, c.ProgressToken != nil, c.Args)
	return c, nil
}

// callArg is the "call" member of args, "" when absent or not a string.
func callArg(args json.RawMessage) string {
	var m struct {
		Call string `json:"call"`
	}
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	return m.Call
}

// recordCancel records a cancel notification and ends the call it names.
func (s *Server) recordCancel(session, id, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	cn := Cancel{Session: session, ID: id, Reason: reason}
	for i := len(s.calls) - 1; i >= 0; i-- {
		if c := s.calls[i]; c.Session == session && c.ID == id {
			cn.Call = c
			cn.Unreleased = c.markCancelled(reason)
			break
		}
	}
	s.cancels = append(s.cancels, cn)
	s.cancelQueue = append(s.cancelQueue, cn)
	close(s.cancelled)
	s.cancelled = make(chan struct{})
	s.log.printf("cancelled id=%s session=%s reason=%q known=%t unreleased=%t", id, session, reason, cn.Call != nil, cn.Unreleased)
}

// Next returns the oldest call not yet returned by Next, waiting up to
// timeout for one to arrive. Calls come in arrival order whatever their
// state. It fails wrapping ErrTimeout, or ErrClosed once the server is
// closed.
func (s *Server) Next(timeout time.Duration) (*Call, error) {
	return pop(s, timeout, "tools/call", func() (*[]*Call, chan struct{}) { return &s.queue, s.arrived })
}

// NextCancel returns the oldest cancel notification not yet returned by
// NextCancel, waiting up to timeout; it fails like Next.
func (s *Server) NextCancel(timeout time.Duration) (Cancel, error) {
	return pop(s, timeout, "notifications/cancelled", func() (*[]Cancel, chan struct{}) { return &s.cancelQueue, s.cancelled })
}

// pop takes the head of the queue that queue gives (under s.mu), with the
// channel closed at its next arrival, waiting up to timeout for one.
func pop[T any](s *Server, timeout time.Duration, what string, queue func() (*[]T, chan struct{})) (T, error) {
	var zero T
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return zero, fmt.Errorf("mcptools: next %s: %w", what, ErrClosed)
		}
		q, wake := queue()
		if len(*q) > 0 {
			v := (*q)[0]
			*q = (*q)[1:]
			s.mu.Unlock()
			return v, nil
		}
		s.mu.Unlock()
		select {
		case <-wake:
		case <-timer.C:
			return zero, fmt.Errorf("mcptools: no %s arrived within %v: %w", what, timeout, ErrTimeout)
		}
	}
}

// Calls are the calls since the last Reset, in arrival order.
func (s *Server) Calls() []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Call(nil), s.calls...)
}

// Lookup finds the call with JSON-RPC id id (in the form of Call.ID) on
// session since the last Reset; the latest such call if the client reused
// the id.
func (s *Server) Lookup(session, id string) (*Call, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.calls) - 1; i >= 0; i-- {
		if c := s.calls[i]; c.Session == session && c.ID == id {
			return c, true
		}
	}
	return nil, false
}

// Cancels are the cancel notifications since the last Reset, in arrival
// order, including those naming no known call.
func (s *Server) Cancels() []Cancel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Cancel(nil), s.cancels...)
}

// Reset starts a new scenario: every call still blocked is released as
// failed with text "toolsim: scenario reset" and marked Leaked, Reset
// waits for their handlers to return, then forgets all calls and cancels
// (and the Next and NextCancel queues). It returns the leaked calls.
func (s *Server) Reset() []*Call {
	s.mu.Lock()
	leaked := s.releaseLocked(stateReset, "toolsim: scenario reset")
	s.calls, s.queue, s.cancels, s.cancelQueue = nil, nil, nil, nil
	s.mu.Unlock()
	for _, c := range leaked {
		<-c.done
		s.log.printf("reset leaked id=%s session=%s tool=%s call=%q", c.ID, c.Session, c.Tool, c.CallArg)
	}
	s.log.printf("reset leaked=%d", len(leaked))
	return leaked
}
