package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Errors a controller branches on. Every error the package returns for a
// call wraps one of these with the call's request id and tool name.
var (
	// ErrFinished: the call was already released by Finish.
	ErrFinished = errors.New("call already finished")
	// ErrCancelled: the client sent notifications/cancelled for the call.
	ErrCancelled = errors.New("call cancelled by the client")
	// ErrDropped: the call's handler context or the HTTP request that carried
	// it ended before a release, and no cancel notification named it (yet).
	ErrDropped = errors.New("call dropped: its request context ended without a cancel notification")
	// ErrReset: the call was still blocked at Reset and was released as failed.
	ErrReset = errors.New("call released by a scenario reset")
	// ErrClosed: the server is closed.
	ErrClosed = errors.New("server closed")
	// ErrNoProgressToken: the client sent no _meta.progressToken with the
	// call, so a progress notification has nothing to name.
	ErrNoProgressToken = errors.New("the client sent no progress token for this call")
	// ErrTimeout: Next or NextCancel waited its whole timeout.
	ErrTimeout = errors.New("timed out")
)

// Outcome is how the controller ends a call: OK gives a normal result,
// otherwise the result has isError set. Text is the result's single text
// content.
type Outcome struct {
	OK   bool
	Text string
}

// callState is where a call is in its life. A call starts pending and ends
// exactly once.
type callState int

const (
	statePending   callState = iota
	stateFinished            // released by Finish
	stateCancelled           // ended by a cancel notification
	stateDropped             // handler or HTTP request context ended
	stateReset               // released as failed by Reset
	stateClosed              // released as failed by Close
)

// Call is one tools/call request, held until the controller releases it.
// Its exported fields are set when it arrives and never change.
type Call struct {
	// ID is the JSON-RPC id of the tools/call request in its JSON form: a
	// number as decimal digits (7), a string quoted ("req-7"). See NumberID
	// and StringID.
	ID string
	// Session is the Mcp-Session-Id of the session the call came in on.
	Session string
	// Tool is the tool's name.
	Tool string
	// Args is the raw JSON of the call's arguments (may be empty).
	Args json.RawMessage
	// CallArg is the arguments' "call" member: toolsim's call id.
	CallArg string
	// ProgressToken is the client's _meta.progressToken, nil when absent.
	ProgressToken any
	// Seq is the call's arrival order on this server, from 1.
	Seq int

	srv     *Server
	ctx     context.Context // the SDK handler's context: routes progress
	session *mcp.ServerSession
	release chan Outcome  // buffered 1: the outcome the handler returns
	done    chan struct{} // closed when the handler has returned

	sendMu sync.Mutex // orders Progress notifications before the result

	mu           sync.Mutex // guards the fields below
	state        callState
	cancelled    bool // a cancel notification named the call
	notified     bool // the middleware has seen that notification
	cancelReason string
	dropCause    error
}

// NumberID is the ID form of a numeric JSON-RPC id.
func NumberID(n int64) string { return fmt.Sprint(n) }

// StringID is the ID form of a string JSON-RPC id.
func StringID(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// Finish releases the call with o. It fails, wrapping ErrFinished,
// ErrCancelled, ErrDropped, ErrReset or ErrClosed, when the call has
// already ended; it never panics.
func (c *Call) Finish(o Outcome) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if err := c.end(stateFinished, o); err != nil {
		return err
	}
	c.srv.log.printf("finish id=%s session=%s tool=%s ok=%t text=%q", c.ID, c.Session, c.Tool, o.OK, o.Text)
	return nil
}

// Progress sends notifications/progress with the call's progress token.
// It fails wrapping ErrNoProgressToken when the client gave none, and like
// Finish when the call has ended. The notification is written before
// Progress returns, so a later Finish's result follows it.
func (c *Call) Progress(progress, total float64, message string) error {
	if c.ProgressToken == nil {
		return c.errorf(ErrNoProgressToken)
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if err := c.endedErr(); err != nil {
		return err
	}
	err := c.session.NotifyProgress(c.ctx, &mcp.ProgressNotificationParams{
		ProgressToken: c.ProgressToken,
		Progress:      progress,
		Total:         total,
		Message:       message,
	})
	if err != nil {
		return fmt.Errorf("mcptools: call %s (%s): sending progress: %w", c.ID, c.Tool, err)
	}
	c.srv.log.printf("progress id=%s session=%s progress=%g total=%g message=%q", c.ID, c.Session, progress, total, message)
	return nil
}

// Done is closed once the call's SDK handler has returned.
func (c *Call) Done() <-chan struct{} { return c.done }

// Pending reports whether the call still waits for a release.
func (c *Call) Pending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == statePending
}

// Cancelled reports whether a notifications/cancelled named this call,
// whenever it arrived (even after the call ended). It can turn true a
// moment before the notification is in Cancels and CancelReason is set:
// the SDK cancels the handler's context first.
func (c *Call) Cancelled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancelled
}

// CancelReason is the reason of the cancel notification that named the
// call, "" when none did or it gave none.
func (c *Call) CancelReason() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancelReason
}

// Dropped reports whether the call ended because the HTTP request carrying
// it, or its handler context, ended for a reason other than a cancel
// notification. A call can be both Dropped and Cancelled: a client that
// cancels often also aborts the HTTP request, and that may be seen first.
func (c *Call) Dropped() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropCause != nil
}

// DropCause says which context ended and why, nil when not Dropped.
func (c *Call) DropCause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropCause
}

// Leaked reports whether the call was still blocked at a Reset.
func (c *Call) Leaked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == stateReset
}

// end moves a pending call to state s and hands o to the handler. On an
// ended call it returns the typed error for how it ended.
func (c *Call) end(s callState, o Outcome) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != statePending {
		return c.endedErrLocked()
	}
	c.state = s
	c.release <- o // buffered, and sent once: never blocks
	return nil
}

// endedErr is nil for a pending call, else the typed error for its end.
func (c *Call) endedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == statePending {
		return nil
	}
	return c.endedErrLocked()
}

func (c *Call) endedErrLocked() error {
	switch {
	case c.state == stateFinished:
		return c.errorf(ErrFinished)
	case c.cancelled:
		return c.errorf(ErrCancelled)
	case c.state == stateDropped:
		return c.errorf(fmt.Errorf("%w (%v)", ErrDropped, c.dropCause))
	case c.state == stateReset:
		return c.errorf(ErrReset)
	default:
		return c.errorf(ErrClosed)
	}
}

func (c *Call) errorf(err error) error {
	return fmt.Errorf("mcptools: call %s (%s): %w", c.ID, c.Tool, err)
}

// markCancelled records the cancel notification naming the call, as the
// receiving middleware sees it, and ends the call if pending. It reports
// whether the controller had not released the call (see Cancel.Unreleased).
func (c *Call) markCancelled(reason string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	unreleased := c.state == statePending || c.state == stateCancelled || c.state == stateDropped
	c.cancelled, c.notified, c.cancelReason = true, true, reason
	if c.state == statePending {
		c.state = stateCancelled
		c.release <- Outcome{Text: "toolsim: cancelled by the client"}
	}
	return unreleased
}

// cancelledBySDK ends a pending call whose handler context the SDK
// cancelled because a notifications/cancelled named it; the notification
// itself reaches markCancelled a moment later.
func (c *Call) cancelledBySDK() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != statePending {
		return
	}
	c.state = stateCancelled
	c.cancelled = true
	c.release <- Outcome{Text: "toolsim: cancelled by the client"}
}

// markDropped ends a pending call whose context ended and reports whether
// it did. If the call had already ended, the outcome it was given is
// waiting in release.
func (c *Call) markDropped(cause error) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != statePending {
		return false
	}
	c.state = stateDropped
	c.dropCause = cause
	c.release <- Outcome{Text: "toolsim: request context ended"}
	return true
}
