package browser

import (
	"bytes"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/timeline"
)

// Engine is the page in a Browser as an engine (engineproto.Engine and
// engineproto.Failer): each event is applied in the page, and the rows it
// then shows are the timeline. The first failure (the browser, the page's
// contract, a console error) sticks: every later call does nothing, and
// Failed returns it.
type Engine struct {
	b       *Browser
	tl      *timeline.Timeline
	now     int64
	started map[string]int64
	err     error
	buf     []byte
}

// NewEngine resets the page and returns it as a fresh engine.
func NewEngine(b *Browser) *Engine {
	e := &Engine{b: b, tl: empty(), started: map[string]int64{}}
	e.take("reset", "")
	return e
}

func empty() *timeline.Timeline {
	return &timeline.Timeline{Items: []*timeline.Item{}, Diagnostics: []timeline.Diagnostic{}}
}

// Apply applies one event in the page.
func (e *Engine) Apply(ev *event.Event) {
	e.now = ev.T
	e.buf = event.AppendEvent(e.buf[:0], ev)
	e.take("apply", string(e.buf))
}

// Finish tells the page the stream ended.
func (e *Engine) Finish() { e.take("finish", "") }

// Timeline is what the page showed after the last call.
func (e *Engine) Timeline() *timeline.Timeline { return e.tl }

// Failed returns the first failure, or nil.
func (e *Engine) Failed() error { return e.err }

// take calls the page and keeps the rows it shows as the timeline.
func (e *Engine) take(method, arg string) {
	if e.err != nil {
		return
	}
	rows, err := e.b.call(method, arg)
	if err == nil {
		e.tl, err = Timeline(rows, e.now, e.started)
	}
	if err != nil {
		e.err = fmt.Errorf("%s: %w", method, err)
	}
}

// Reconstruct rebuilds the events a persisted log holds
// (docs/persisted-log.md) and has the page mount a fresh view from the
// messages they store (window.toolsim.rebuild): the engine's answer to
// reconstruct, which the reload oracle compares with the live page.
func Reconstruct(b *Browser, log []byte) (*Engine, error) {
	r, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{KeepEvents: true})
	if err != nil {
		return nil, err
	}
	e := &Engine{b: b, tl: empty(), started: map[string]int64{}}
	buf := []byte{'['}
	for i := range r.Events {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = event.AppendEvent(buf, &r.Events[i])
		e.now = r.Events[i].T
	}
	e.take("rebuild", string(append(buf, ']')))
	return e, nil
}
