package engineproto

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/internal/lines"
)

// MaxReply is the longest reply line accepted (64 MB).
const MaxReply = 64 << 20

// DefaultTimeout is how long an engine may take to answer one message.
const DefaultTimeout = 5 * time.Second

// Options configure a Client.
type Options struct {
	Timeout   time.Duration // per message; DefaultTimeout if zero
	Width     int           // sent at init (default 80)
	MetaTools []string      // sent at init
	Features  []string      // sent at init: the features toolsim will generate (nil: all)

	clock clock // times the timeouts; the real clock if nil (tests set a fake)
}

// Info is what an engine declared at init.
type Info struct {
	Capabilities []string
	Fields       []string
	Features     []string // the features the engine supports; nil when it did not say (all)
	Grouping     bool     // false when the engine shows every call on its own row
	// Contract is what the engine declared of its real upstream: the
	// guarantees it relies on and the library's documented behaviours
	// (init_ok "contract" and "documented"; zero when it said nothing).
	Contract contract.Contract
}

// Has reports whether the engine declared a capability.
func (i Info) Has(capability string) bool { return slices.Contains(i.Capabilities, capability) }

// Client is one running engine process. It is not safe for concurrent use.
type Client struct {
	argv    []string
	opts    Options
	proc    *process
	replies chan readResult
	stderr  *tail
	nextID  int64
	buf     []byte
	tls     timelines         // the previous timeline, to apply deltas to
	members []jsonscan.Member // scratch space for decoding replies
	// finals is BatchFinal's scratch, kept for the next call: the copies
	// of delta items' JSON and the map over them. Nothing decoded points
	// into it (the timeline decoder copies what it keeps).
	finals  final
	dead    bool
	escaped bool // a process outside the group held its output after the kill
	Info    Info
}

type readResult struct {
	line []byte
	err  error
}

// Start starts the engine and performs the init handshake. A failure here
// is a setup problem (EngineError.Setup).
func Start(argv []string, opts Options) (*Client, error) {
	if len(argv) == 0 {
		return nil, &EngineError{Reason: "no engine command", Setup: true}
	}
	return start(argv, opts, startProcess)
}

// start is Start with the way the engine is started: a process, or (for
// tests and benchmarks) a server on a goroutine (export_test.go).
func start(argv []string, opts Options, spawn func([]string, io.Writer) (*process, error)) (*Client, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.clock == nil {
		opts.clock = realClock{}
	}
	c := &Client{argv: argv, opts: opts, stderr: &tail{n: 50}, replies: make(chan readResult, 1)}
	if err := c.spawn(spawn); err != nil {
		return nil, err
	}
	if err := c.handshake(); err != nil {
		c.Kill()
		return nil, err
	}
	return c, nil
}

func (c *Client) name() string { return strings.Join(c.argv, " ") }

func (c *Client) spawn(start func([]string, io.Writer) (*process, error)) error {
	p, err := start(c.argv, c.stderr)
	if err != nil {
		return &EngineError{Engine: c.name(), Reason: fmt.Sprintf("cannot start: %v", err), Setup: true}
	}
	c.proc = p
	go readReplies(p.stdout, c.replies)
	return nil
}

// readReplies forwards each reply line; it ends at EOF or a read error.
func readReplies(r io.Reader, out chan<- readResult) {
	lr := lines.NewReader(r, 1<<20, MaxReply)
	// Each line is copied into one of replyBuffers buffers in turn. The
	// channel holds one line and the client reads one at a time, keeping
	// nothing of a line once it asks for the next (a reply's strings are
	// copies; its timeline JSON is decoded or copied before the next read),
	// so a buffer comes round again only after the client is done with its
	// line: three would do.
	var ring [replyBuffers][]byte
	for k := 0; ; k = (k + 1) % replyBuffers {
		line, _, err := lr.Next()
		if errors.Is(err, lines.ErrTooLong) {
			out <- readResult{err: fmt.Errorf("a reply longer than %d bytes", MaxReply)}
			continue
		}
		if err != nil {
			out <- readResult{err: err}
			close(out)
			return
		}
		ring[k] = append(ring[k][:0], line...)
		out <- readResult{line: ring[k]}
	}
}

// replyBuffers is how many reply lines readReplies keeps buffers for.
const replyBuffers = 4

func (c *Client) handshake() error {
	msg := Message{Type: TypeInit, Protocol: Version, Options: &InitOptions{Width: c.opts.Width, MetaTools: c.opts.MetaTools, Features: c.opts.Features}}
	rep, err := c.call(&msg, "init")
	if err != nil {
		err.Setup = true
		return err
	}
	switch {
	case rep.Type != TypeInitOK:
		return c.fail("init", fmt.Sprintf("want init_ok, got %q", rep.Type), true)
	case rep.Protocol != Version:
		return c.fail("init", fmt.Sprintf("speaks protocol %q, toolsim speaks %q", rep.Protocol, Version), true)
	case !slices.Contains(rep.Capabilities, CapTimeline):
		return c.fail("init", `capabilities lack "timeline"`, true)
	}
	c.Info = Info{Capabilities: rep.Capabilities, Fields: rep.Fields, Features: rep.Features, Grouping: rep.Grouping == nil || *rep.Grouping}
	var perr error
	if c.Info.Contract.Guarantees, perr = contract.ParseNames(rep.Contract); perr != nil {
		return c.fail("init", "init_ok contract: "+perr.Error(), true)
	}
	if c.Info.Contract.Documented, perr = contract.ParseBehaviours(rep.Documented); perr != nil {
		return c.fail("init", "init_ok documented: "+perr.Error(), true)
	}
	if c.Info.Contract.ByDesign, perr = contract.ParseBehaviours(rep.ByDesign); perr != nil {
		return c.fail("init", "init_ok by_design: "+perr.Error(), true)
	}
	if perr = c.Info.Contract.Check(); perr != nil {
		return c.fail("init", "init_ok: "+perr.Error(), true)
	}
	c.tls.empty()
	return nil
}

func (c *Client) fail(what, reason string, setup bool) *EngineError {
	return &EngineError{Engine: c.name(), Message: what, Reason: reason, Setup: setup, Stderr: c.stderr.snapshot()}
}

// send writes one message with a fresh id.
func (c *Client) send(m *Message) error {
	c.nextID++
	m.ID = c.nextID
	c.buf = append(appendMessage(c.buf[:0], m), '\n')
	_, err := c.proc.stdin.Write(c.buf)
	return err
}

// call sends a message and reads its one reply, within the timeout.
func (c *Client) call(m *Message, what string) (*Reply, *EngineError) {
	if c.dead {
		return nil, c.fail(what, "the engine is not running", false)
	}
	return c.newReplyTimer().run(what, func(expired <-chan struct{}) (*Reply, *EngineError) {
		if err := c.send(m); err != nil {
			return nil, c.died(what, writeFailed(err))
		}
		return c.await(m.ID, what, expired)
	})
}

// replyTimer times the replies to one message with one timer, armed
// again for each reply (each has the whole timeout): a batch costs a timer
// and a channel, not one per reply. When the time passes, the engine's
// whole process group is killed, which also unblocks a write to an engine
// that stopped reading, and the timeout is reported whatever the wait
// returned.
type replyTimer struct {
	c       *Client
	t       timer
	expired chan struct{}
	armed   bool
}

// newReplyTimer returns c's timer, armed.
func (c *Client) newReplyTimer() *replyTimer {
	rt := &replyTimer{c: c, expired: make(chan struct{}), armed: true}
	rt.t = c.opts.clock.AfterFunc(c.opts.Timeout, func() {
		close(rt.expired)
		c.proc.killGroup()
	})
	return rt
}

// run runs step under the timeout, arming the timer again if a previous
// step stopped it.
func (rt *replyTimer) run(what string, step func(expired <-chan struct{}) (*Reply, *EngineError)) (*Reply, *EngineError) {
	c := rt.c
	if !rt.armed {
		rt.t.Reset(c.opts.Timeout)
	}
	rep, err := step(rt.expired)
	rt.armed = false
	if !rt.t.Stop() {
		c.Kill()
		return nil, c.fail(what, fmt.Sprintf("no reply within %s: killed its process group%s", c.opts.Timeout, c.escapedNote()), false)
	}
	return rep, err
}

// read waits, within the timeout, for one reply to message id.
func (rt *replyTimer) read(id int64, what string) (*Reply, *EngineError) {
	return rt.run(what, func(expired <-chan struct{}) (*Reply, *EngineError) {
		return rt.c.await(id, what, expired)
	})
}

// stop releases the timer (a step stops it; one never run is armed).
func (rt *replyTimer) stop() {
	if rt.armed {
		rt.t.Stop()
	}
}

// await waits for the reply to message id, or for expired. When the
// leader exits first, the rest of its group is killed and the replies it
// wrote are still read.
func (c *Client) await(id int64, what string, expired <-chan struct{}) (*Reply, *EngineError) {
	exited := c.proc.exited
	for {
		select {
		case r, ok := <-c.replies:
			if !ok || r.err == io.EOF {
				return nil, c.died(what, "it exited without answering")
			}
			if r.err != nil {
				return nil, c.broken(what, r.err.Error())
			}
			return c.decode(r.line, id, what)
		case <-exited:
			c.proc.killGroup()
			exited = nil
		case <-expired:
			return nil, nil // timed reports it
		}
	}
}

func (c *Client) decode(line []byte, id int64, what string) (*Reply, *EngineError) {
	rep, members, err := decodeReply(line, c.members)
	c.members = members
	var serr *syntaxError
	switch {
	case errors.As(err, &serr):
		return nil, c.broken(what, fmt.Sprintf("a reply that is not JSON (%v): %.200q", err, line))
	case err != nil:
		return nil, c.broken(what, fmt.Sprintf("a reply that does not decode (%v): %.200q", err, line))
	}
	switch {
	case rep.ID != id:
		return nil, c.broken(what, fmt.Sprintf("a reply for id %d, want %d (an extra or missing reply)", rep.ID, id))
	case rep.Type == TypeError:
		return rep, c.fail(what, AnsweredError+rep.Message, false)
	}
	return rep, nil
}

// broken kills an engine whose replies cannot be trusted any more.
func (c *Client) broken(what, reason string) *EngineError {
	c.Kill()
	return c.fail(what, reason, false)
}

// died reaps a process that stopped answering and reports its status.
func (c *Client) died(what, reason string) *EngineError {
	c.Kill()
	e := c.fail(what, reason+c.escapedNote(), false)
	if c.proc.cmd != nil {
		e.Exit = c.proc.cmd.ProcessState.String()
	}
	return e
}

// escapedNote explains an engine whose output outlived its process group.
func (c *Client) escapedNote() string {
	if !c.escaped {
		return ""
	}
	return fmt.Sprintf("; a process outside its group still held its output %s later", WaitDelay)
}

// Kill ends the engine's whole process group and reaps it. It is safe to
// call more than once.
func (c *Client) Kill() {
	if c.dead {
		return
	}
	c.dead = true
	c.escaped = c.proc.reap(c.drain)
}

// drain discards the replies until the reader stops.
func (c *Client) drain() {
	for range c.replies {
	}
}

// Close asks the engine to stop (by closing its input) and reaps it and
// its process group. When it does not exit within the timeout it is
// killed; Close then says so.
func (c *Client) Close() error {
	if c.dead {
		return nil
	}
	c.proc.stdin.Close()
	expired := make(chan struct{})
	timer := c.opts.clock.AfterFunc(c.opts.Timeout, func() { close(expired) })
	var err error
	select {
	case <-c.proc.exited:
		timer.Stop()
		err = c.proc.waitErr
	case <-expired:
		err = fmt.Errorf("engine %q did not exit within %s of its input closing: killed its process group", c.name(), c.opts.Timeout)
	}
	c.Kill()
	if c.escaped {
		err = errors.Join(err, fmt.Errorf("engine %q: a process outside its group still held its output %s after it ended", c.name(), WaitDelay))
	}
	return err
}

// Dead reports whether the process was killed or exited.
func (c *Client) Dead() bool { return c.dead }

// encodeEvent returns the canonical JSON object of an event.
func encodeEvent(ev *event.Event) json.RawMessage { return event.AppendEvent(nil, ev) }

// Pid returns the engine process's id, which is also its process group's.
func (c *Client) Pid() int { return c.proc.pid() }

// writeFailed words a failed write to the engine: a closed pipe means the
// engine is gone, which is what a reader of the error needs to know.
func writeFailed(err error) string {
	if errors.Is(err, syscall.EPIPE) {
		return "it exited without answering (it closed its input before toolsim wrote to it)"
	}
	return fmt.Sprintf("cannot write to it: %v", err)
}
