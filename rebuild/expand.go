package rebuild

import (
	"bytes"
	"fmt"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/store"
)

// clock turns log timestamps into trace milliseconds since t0.
type clock struct {
	origin time.Time
	set    bool
	lastT  int64
	prefix string    // date and minute of the last timestamp parsed
	minute time.Time // that minute
}

func (c *clock) setOrigin(ts string) error {
	t, err := store.ParseTime(ts)
	if err != nil {
		return err
	}
	c.origin, c.set = t, true
	return nil
}

// parse reads a log timestamp, reusing the last date-and-minute prefix:
// consecutive records almost always share it, and only the seconds and
// milliseconds need reading.
func (c *clock) parse(s []byte) (time.Time, error) {
	const prefix = len("2006-01-02T15:04:")
	if len(s) == len(store.TimeLayout) && c.prefix != "" && string(s[:prefix]) == c.prefix && s[len(s)-1] == 'Z' && s[prefix+2] == '.' {
		sec, ok1 := digits(s[prefix : prefix+2])
		ms, ok2 := digits(s[prefix+3 : prefix+6])
		if ok1 && ok2 && sec < 60 {
			return c.minute.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond), nil
		}
	}
	t, err := store.ParseTime(string(s))
	if err == nil && len(s) == len(store.TimeLayout) {
		c.prefix, c.minute = string(s[:prefix]), t.Truncate(time.Minute)
	}
	return t, err
}

func digits(s []byte) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// at returns the trace time of a timestamp; problems keep the previous time.
func (b *builder) at(n *node) int64 {
	c := &b.clock
	ts, err := c.parse(n.stamp())
	if err != nil {
		b.problem(n.line, CodeBadTime, "timestamp %q: %v: using the previous record's time", n.stamp(), err)
		return c.lastT
	}
	if !c.set {
		c.origin, c.set = ts, true
	}
	// Whole milliseconds: a time.Duration saturates past 292 years, and a
	// trace's clock may run to 10^18 ms.
	d := ts.UnixMilli() - c.origin.UnixMilli()
	if d < c.lastT {
		b.problem(n.line, CodeBadTime, "timestamp %s goes back in time: using the previous record's time", n.stamp())
		return c.lastT
	}
	c.lastT = d
	return c.lastT
}

// emit turns a node into canonical events and applies them.
func (b *builder) emit(n *node) {
	t := b.at(n)
	b.res.Records++
	b.evbuf = b.events(n, b.evbuf[:0])
	for _, ev := range b.evbuf {
		ev.T = t
		b.apply(ev)
	}
}

func (b *builder) apply(ev event.Event) {
	ev.Seq = b.nextSeq()
	b.res.Engine.Apply(&ev)
	if b.opts.KeepEvents {
		b.res.Events = append(b.res.Events, ev)
	}
}

func (b *builder) nextSeq() int64 {
	b.res.eventCount++
	return b.res.eventCount
}

// events appends a node's canonical events (without seq and t) to dst.
func (b *builder) events(n *node, dst []event.Event) []event.Event {
	r := n.rec
	if n.end {
		return append(dst, lifecycleEnd(r)...)
	}
	one := func(ev event.Event) []event.Event { return append(dst, ev) }
	switch r.Type {
	case store.TypeTurnStart:
		return one(event.Event{Kind: event.KindTurnStart, Role: r.Role})
	case store.TypeTurnEnd:
		return one(event.Event{Kind: event.KindTurnEnd})
	case store.TypeUserMessage:
		return one(event.Event{Kind: event.KindUser, Text: r.Text})
	case store.TypeAssistant, store.TypeTextDelta:
		return one(event.Event{Kind: event.KindText, Text: r.Text})
	case store.TypeThinking, store.TypeThinkingDelta:
		return one(event.Event{Kind: event.KindThinking, Text: r.Text})
	case store.TypeToolCall:
		return one(event.Event{Kind: event.KindToolStart, ID: r.CallID, Name: r.Name, Args: r.Args, Batch: r.Batch, Parent: r.ParentCall})
	case store.TypeToolLifecycle:
		return append(dst, lifecycleStart(r)...)
	case store.TypeToolProgress:
		return one(event.Event{Kind: event.KindToolProgress, ID: r.CallID, Output: r.Output, Details: r.Details})
	case store.TypeToolResult:
		return append(dst, b.result(n)...)
	case store.TypePermission:
		return one(event.Event{Kind: event.KindPermission, ID: r.CallID, State: r.State})
	case store.TypeCancel:
		return one(event.Event{Kind: event.KindCancel, Reason: r.Reason})
	case store.TypeError:
		return one(event.Event{Kind: event.KindError, Message: r.Message})
	case store.TypeRawEvent:
		return append(dst, b.rawEvent(n)...)
	}
	b.problem(n.line, CodeUnknownType, "record type %q: skipped", r.Type)
	return dst
}

func one(ev event.Event) []event.Event { return []event.Event{ev} }

func (b *builder) result(n *node) []event.Event {
	r := n.rec
	if r.OK == nil {
		b.problem(n.line, CodeBadRecord, "tool_result %s has no ok: skipped", r.CallID)
		return nil
	}
	return one(event.Event{Kind: event.KindToolDone, ID: r.CallID, OK: *r.OK, Output: r.Output, Error: r.Error, DurationMS: r.DurationMS})
}

// lifecycleStart expands the call of a lifecycle.
func lifecycleStart(r *store.Record) []event.Event {
	return one(event.Event{Kind: event.KindToolStart, ID: r.CallID, Name: r.Name, Args: r.Args, Batch: r.Batch, Parent: r.ParentCall})
}

// folded re-creates the progress updates a lifecycle folded in: the first
// carries the joined output and the last details.
func folded(r *store.Record) []event.Event {
	var out []event.Event
	for i := range r.Updates {
		ev := event.Event{Kind: event.KindToolProgress, ID: r.CallID}
		if i == 0 {
			ev.Output, ev.Details = r.Progress, r.Details
		}
		out = append(out, ev)
	}
	return out
}

// lifecycleEnd expands the folded progress and the result of a lifecycle.
func lifecycleEnd(r *store.Record) []event.Event {
	out := folded(r)
	if r.OK != nil {
		out = append(out, event.Event{Kind: event.KindToolDone, ID: r.CallID, OK: *r.OK, Output: r.Output, Error: r.Error, DurationMS: r.DurationMS})
	}
	return out
}

func (b *builder) rawEvent(n *node) []event.Event {
	_, evs, err := event.ReadAll(bytes.NewReader(n.rec.Event), event.ReaderOptions{})
	if err != nil || len(evs) != 1 {
		b.problem(n.line, CodeBadRecord, "raw_event does not hold one canonical event: %v", fmt.Sprint(err))
		return nil
	}
	return evs
}
