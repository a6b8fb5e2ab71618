package engineproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/lines"
	"github.com/toolsim/toolsim/timeline"
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
}

// Info is what an engine declared at init.
type Info struct {
	Capabilities []string
	Fields       []string
	// Features lists the parts of SPEC §2 the engine supports; nil means
	// every one.
	Features []string
	// Grouping is false for an engine that shows every call on its own row.
	Grouping bool
}

// Has reports whether the engine declared a capability.
func (i Info) Has(capability string) bool { return slices.Contains(i.Capabilities, capability) }

// Client is one running engine process. It is not safe for concurrent use.
type Client struct {
	argv    []string
	opts    Options
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan readResult
	stderr  *tail
	nextID  int64
	buf     []byte
	dead    bool
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
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	c := &Client{argv: argv, opts: opts, stderr: &tail{n: 50}, replies: make(chan readResult, 1)}
	if err := c.spawn(); err != nil {
		return nil, err
	}
	if err := c.handshake(); err != nil {
		c.Kill()
		return nil, err
	}
	return c, nil
}

func (c *Client) name() string { return strings.Join(c.argv, " ") }

func (c *Client) spawn() error {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Stderr = c.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return &EngineError{Engine: c.name(), Reason: err.Error(), Setup: true}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return &EngineError{Engine: c.name(), Reason: err.Error(), Setup: true}
	}
	if err := cmd.Start(); err != nil {
		return &EngineError{Engine: c.name(), Reason: fmt.Sprintf("cannot start: %v", err), Setup: true}
	}
	c.cmd, c.stdin = cmd, in
	go readReplies(out, c.replies)
	return nil
}

// readReplies forwards each reply line; it ends at EOF or a read error.
func readReplies(r io.Reader, out chan<- readResult) {
	lr := lines.NewReader(r, 1<<20, MaxReply)
	for {
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
		out <- readResult{line: bytes.Clone(line)}
	}
}

func (c *Client) handshake() error {
	msg := Message{Type: TypeInit, Protocol: Version, Options: &InitOptions{Width: c.opts.Width, MetaTools: c.opts.MetaTools}}
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
	return nil
}

func (c *Client) fail(what, reason string, setup bool) *EngineError {
	return &EngineError{Engine: c.name(), Message: what, Reason: reason, Setup: setup, Stderr: c.stderr.snapshot()}
}

// send writes one message with a fresh id.
func (c *Client) send(m *Message) error {
	c.nextID++
	m.ID = c.nextID
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.buf = append(append(c.buf[:0], data...), '\n')
	_, err = c.stdin.Write(c.buf)
	return err
}

// call sends a message and reads its one reply.
func (c *Client) call(m *Message, what string) (*Reply, *EngineError) {
	if c.dead {
		return nil, c.fail(what, "the engine is not running", false)
	}
	if err := c.send(m); err != nil {
		return nil, c.died(what, fmt.Sprintf("cannot write to it: %v", err))
	}
	return c.read(m.ID, what)
}

// read waits for the reply to message id.
func (c *Client) read(id int64, what string) (*Reply, *EngineError) {
	timer := time.NewTimer(c.opts.Timeout)
	defer timer.Stop()
	select {
	case r, ok := <-c.replies:
		if !ok || r.err == io.EOF {
			return nil, c.died(what, "it exited without answering")
		}
		if r.err != nil {
			return nil, c.broken(what, r.err.Error())
		}
		return c.decode(r.line, id, what)
	case <-timer.C:
		c.Kill()
		return nil, c.fail(what, fmt.Sprintf("no reply within %s: killed", c.opts.Timeout), false)
	}
}

func (c *Client) decode(line []byte, id int64, what string) (*Reply, *EngineError) {
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return nil, c.broken(what, fmt.Sprintf("a reply that is not JSON (%v): %.200q", err, line))
	}
	switch {
	case rep.ID != id:
		return nil, c.broken(what, fmt.Sprintf("a reply for id %d, want %d (an extra or missing reply)", rep.ID, id))
	case rep.Type == TypeError:
		return &rep, c.fail(what, "it answered error: "+rep.Message, false)
	}
	return &rep, nil
}

// broken kills an engine whose replies cannot be trusted any more.
func (c *Client) broken(what, reason string) *EngineError {
	c.Kill()
	return c.fail(what, reason, false)
}

// died reaps a process that stopped answering and reports its status.
func (c *Client) died(what, reason string) *EngineError {
	e := c.fail(what, reason, false)
	c.Kill()
	e.Exit = c.cmd.ProcessState.String()
	e.Stderr = c.stderr.snapshot()
	return e
}

// Kill ends the process and reaps it. It is safe to call more than once.
func (c *Client) Kill() {
	if c.dead {
		return
	}
	c.dead = true
	c.stdin.Close()
	c.cmd.Process.Kill()
	c.cmd.Wait()
	for range c.replies {
	}
}

// Close asks the engine to stop (by closing its input) and reaps it,
// killing it if it does not exit within the timeout.
func (c *Client) Close() error {
	if c.dead {
		return nil
	}
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	timer := time.NewTimer(c.opts.Timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		c.dead = true
		for range c.replies {
		}
		return err
	case <-timer.C:
		c.cmd.Process.Kill()
		<-done
		c.dead = true
		for range c.replies {
		}
		return fmt.Errorf("engine %q did not exit when its input closed: killed", c.name())
	}
}

// Dead reports whether the process was killed or exited.
func (c *Client) Dead() bool { return c.dead }

// encodeEvent returns the canonical JSON object of an event.
func encodeEvent(ev *event.Event) json.RawMessage { return event.AppendEvent(nil, ev) }

// decodeTimeline reads a timeline reply.
func (c *Client) decodeTimeline(rep *Reply, what string) (*timeline.Timeline, *EngineError) {
	if rep.Type != TypeTimeline {
		return nil, c.broken(what, fmt.Sprintf("want a timeline reply, got %q", rep.Type))
	}
	var tl timeline.Timeline
	if err := json.Unmarshal(rep.Timeline, &tl); err != nil {
		return nil, c.broken(what, fmt.Sprintf("the timeline does not decode: %v", err))
	}
	return &tl, nil
}

// Pid returns the engine process's id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }
