package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Turns maps Claude Code records, in order, to canonical events and keeps
// the turn structure: a user prompt is a user turn of its own; the agent's
// work until the next prompt is one assistant turn. A cancel triggered by an
// interrupted result is held back one record so that the interrupt marker
// that normally follows merges into it.
type Turns struct {
	B        *importer.Builder
	Open     bool           // an assistant turn is open
	Live     map[string]int // tool id -> starts not yet resolved
	NLive    int
	Ignored  map[string]int // record kinds ignored, by name
	LastEnds bool           // the open turn's last main record was a final assistant message

	pending  *event.Event // a cancel held back: see Interrupted
	pendingT int64
	pendIDs  []string
}

// NewTurns starts the mapping onto b, counting ignored kinds in ignored.
func NewTurns(b *importer.Builder, ignored map[string]int) *Turns {
	return &Turns{B: b, Live: map[string]int{}, Ignored: ignored}
}

// Ignore counts a record kind that maps to nothing.
func (c *Turns) Ignore(what string) { c.Ignored[what]++ }

// Put appends an event as is.
func (c *Turns) Put(t int64, ev event.Event) { c.B.Emit(t, ev) }

// Emit appends an event after any held-back cancel.
func (c *Turns) Emit(t int64, ev event.Event) {
	c.Flush()
	c.Put(t, ev)
}

// Content appends an event that belongs to an assistant turn, opening one
// if needed.
func (c *Turns) Content(t int64, ev event.Event) {
	c.Flush()
	c.EnsureOpen(t)
	c.Put(t, ev)
}

// EnsureOpen opens an assistant turn at t when none is open.
func (c *Turns) EnsureOpen(t int64) {
	if !c.Open {
		c.Put(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		c.Open, c.LastEnds = true, false
	}
}

// CloseTurn ends the open assistant turn (the source said so: a new
// prompt, or the end of the run). Tools still live are resolved by the
// engine as unfinished_at_turn_end.
func (c *Turns) CloseTurn(t int64) {
	c.Flush()
	if c.Open {
		c.Put(t, event.Event{Kind: event.KindTurnEnd})
		c.Open = false
	}
	c.ClearLive()
	c.LastEnds = false
}

// ClearLive forgets the tools still live: the turn that ran them is over.
func (c *Turns) ClearLive() {
	clear(c.Live)
	c.NLive = 0
}

// Started notes a tool start: the call is live until Resolved.
func (c *Turns) Started(id string) {
	c.Live[id]++
	c.NLive++
}

// Resolved notes that a live call got its result; an id that is not live
// is left alone.
func (c *Turns) Resolved(id string) {
	if c.Live[id] > 0 {
		c.Live[id]--
		c.NLive--
	}
}

// Cancelled closes the turn after a cancel: the user interrupted it.
func (c *Turns) Cancelled(t int64) {
	c.ClearLive()
	if c.Open {
		c.Put(t, event.Event{Kind: event.KindTurnEnd})
		c.Open = false
	}
	c.LastEnds = false
}

// Flush emits the held-back cancel.
func (c *Turns) Flush() {
	if c.pending == nil {
		return
	}
	ev, t := *c.pending, c.pendingT
	c.pending = nil
	ev.Extra = append(ev.Extra, Field("interrupted_ids", c.pendIDs))
	c.pendIDs = nil
	c.EnsureOpen(t)
	c.Put(t, ev)
	c.Cancelled(t)
}

// Prompt maps a user prompt: a user turn of its own.
func (c *Turns) Prompt(t int64, text, uuid string) {
	c.CloseTurn(t)
	c.Put(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	c.Put(t, event.Event{Kind: event.KindUser, Text: text, Extra: UUIDField(uuid)})
	c.Put(t, event.Event{Kind: event.KindTurnEnd})
}

// Cancel maps an interrupt marker. A cancel held back by an interrupted
// result is the same interruption: it takes the marker as its reason.
func (c *Turns) Cancel(t int64, reason, uuid string) {
	if c.pending != nil {
		c.pending.Reason = reason
		if uuid != "" {
			c.pending.Extra = append(c.pending.Extra, Field("marker_uuid", uuid))
		}
		c.Flush()
		return
	}
	c.EnsureOpen(t)
	c.Put(t, event.Event{Kind: event.KindCancel, Reason: reason, Extra: UUIDField(uuid)})
	c.Cancelled(t)
}

// Interrupted maps a result that says its call was interrupted
// (toolUseResult.interrupted, or an interrupt marker as the result): the
// partial output is kept as progress, and a cancel is held back until the
// next record, so that the interrupt marker which normally follows merges
// into the same cancel.
func (c *Turns) Interrupted(t int64, id, text, uuid string) {
	if text != "" && !IsMarker(text) {
		c.Put(t, event.Event{Kind: event.KindToolProgress, ID: id, Output: text, Extra: UUIDField(uuid)})
	}
	if c.pending == nil {
		reason := "tool interrupted"
		if IsMarker(text) {
			reason = strings.TrimSpace(text)
		}
		c.pending = &event.Event{Kind: event.KindCancel, Reason: reason, Extra: UUIDField(uuid)}
		c.pendingT = t
	}
	c.pendIDs = append(c.pendIDs, id)
}

// IsMarker reports whether text is Claude Code's interrupt marker:
// "[Request interrupted by user]" or "[Request interrupted by user for
// tool use]".
func IsMarker(text string) bool {
	s := strings.TrimSpace(text)
	return strings.HasPrefix(s, "[Request interrupted by user") && strings.HasSuffix(s, "]")
}

// IsRejection reports whether an error result says the call was refused
// permission: rejected by the user, or not granted.
func IsRejection(text string) bool {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "Error:"))
	return strings.HasPrefix(s, "The user doesn't want to proceed with this tool use") ||
		strings.HasPrefix(s, "The user doesn't want to take this action right now") ||
		strings.HasPrefix(s, "Claude requested permissions to ") && strings.Contains(s, "but you haven't granted it yet") ||
		strings.HasPrefix(s, "Permission to use ") && strings.Contains(s, " has been denied")
}

// UUIDField keeps a record uuid as an unknown field.
func UUIDField(uuid string) []event.Field {
	if uuid == "" {
		return nil
	}
	return []event.Field{Field("uuid", uuid)}
}

// Field builds an unknown field holding v as JSON.
func Field(key string, v any) event.Field {
	raw, _ := json.Marshal(v)
	return event.Field{Key: key, Value: raw}
}
