package executor

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
)

// Answers waits for the user's answers to the permission requests of the
// calls ids, paused to ask (Config.PauseToAsk), and yields each call's
// answer as the trace gives it, in whatever order: nil for a grant,
// ErrDenied for a denial, context.Canceled when the user cancelled
// instead. A call that asked nothing yields an error at once. Breaking
// out of the range leaves the rest unanswered.
func (t *Turn) Answers(ctx context.Context, ids []string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		e := t.e
		e.mu.Lock()
		var pending []*call
		for _, id := range ids {
			c := t.asking(id)
			if c == nil || slices.Contains(pending, c) {
				e.mu.Unlock()
				yield(id, fmt.Errorf("executor: Answers: no call %q asked for permission", id))
				return
			}
			pending = append(pending, c)
		}
		for len(pending) > 0 {
			c := e.takeAny(pending)
			done, err := c.answer(c.next())
			if !done {
				continue
			}
			pending = slices.DeleteFunc(pending, func(d *call) bool { return d == c })
			e.poke()
			e.mu.Unlock()
			more := yield(c.id, err)
			e.mu.Lock()
			if !more {
				break
			}
		}
		e.mu.Unlock()
	}
}

// takeAny parks the calls cs until the trace gave one of them an order,
// and returns the first of them with one (in cs's order). e.mu is held,
// and released while they are parked: each call's wake is the one
// channel this waits on meanwhile.
func (e *Engine) takeAny(cs []*call) *call {
	own := make([]chan struct{}, len(cs))
	shared := make(chan struct{}, 1)
	for i, c := range cs {
		own[i], c.wake, c.awaited = c.wake, shared, true
	}
	defer func() {
		for i, c := range cs {
			c.wake, c.parked, c.awaited = own[i], false, false
		}
	}()
	for {
		for _, c := range cs {
			if len(c.todo) > 0 {
				return c
			}
		}
		for _, c := range cs {
			c.parked = true
		}
		e.poke()
		e.mu.Unlock()
		<-shared
		e.mu.Lock()
	}
}

// next takes the call's first order; it has one.
func (c *call) next() order {
	o := c.todo[0]
	c.todo = c.todo[1:]
	return o
}

// Resume is the answer-and-resume loop of a library that pauses its run to
// ask (Config.PauseToAsk). run runs the library (answers nil), or resumes
// it with the answers to the requests it paused on (a call id's answer:
// nil granted, ErrDenied denied), and returns the call ids it paused to
// ask about this time. Resume shows each request (UI.Asked), waits for
// the answers in the order the trace gives them (Answers), shows each
// grant (UI.Approved: a denial is the library's to report), and resumes;
// it returns run's error once the library asks nothing more, or
// context.Canceled once the user cancelled instead of answering.
func (t *Turn) Resume(ctx context.Context, run func(answers map[string]error) (asked []string, err error)) error {
	var answers map[string]error
	for {
		asked, err := run(answers)
		if err != nil || len(asked) == 0 || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
		for _, id := range asked {
			t.UI.Asked(id)
		}
		answers = map[string]error{}
		for id, err := range t.Answers(ctx, asked) {
			switch {
			case errors.Is(err, context.Canceled):
				return context.Canceled
			case err == nil:
				t.UI.Approved(id)
			case !errors.Is(err, ErrDenied):
				return err
			}
			answers[id] = err
		}
	}
}
