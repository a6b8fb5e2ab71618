package executor

import (
	"context"
	"errors"

	"github.com/toolsim/toolsim/timeline"
)

const (
	statusPending = timeline.StatusPending
	statusRunning = timeline.StatusRunning
)

// UI is what a UI built on the library's callbacks shows, as a timeline:
// the adapter records each callback into it. It joins a result to its call
// by the library's own call id, the one join every such UI does, and
// decides no status beyond what a result's error says. Its methods may be
// called from any goroutine, the library's callbacks' own included.
type UI struct {
	e      *Engine
	items  []*timeline.Item
	open   bool   // the last item is text still growing
	reason string // the user's reason for the last cancel
	ver    uint64
	shot   []*timeline.Item // the last snapshot's copies, by index
}

// Text appends an assistant text delta: consecutive deltas grow one item.
func (u *UI) Text(delta string) { u.grow(timeline.ItemAssistant, delta) }

// Thinking appends a reasoning delta: consecutive deltas grow one item.
func (u *UI) Thinking(delta string) { u.grow(timeline.ItemThinking, delta) }

func (u *UI) grow(kind timeline.ItemKind, delta string) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	if n := len(u.items); u.open && n > 0 && u.items[n-1].Kind == kind {
		it := u.items[n-1]
		it.Text += delta
		u.bump(it)
		return
	}
	u.push(&timeline.Item{Kind: kind, Text: delta})
	u.open = true
}

// Call shows a tool call, running, on a row of its own.
func (u *UI) Call(id, name string) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	u.push(&timeline.Item{Kind: timeline.ItemTool, Tool: &timeline.Tool{
		ID: id, Name: name, Status: timeline.StatusRunning, StartT: u.e.now}})
}

// Result shows the result the library reported for call id on the latest
// row of that id, in place of any result shown there before: ok when err
// is nil, interrupted for context.Canceled, denied for ErrDenied, failed
// (with err's text) otherwise.
func (u *UI) Result(id, output string, err error) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	for i := len(u.items) - 1; i >= 0; i-- {
		if t := u.items[i].Tool; t != nil && t.ID == id {
			u.settle(u.items[i], output, err)
			return
		}
	}
}

// settle shows a result on the row it, in place of any result shown there
// before. The caller holds the lock.
func (u *UI) settle(it *timeline.Item, output string, err error) {
	tool := it.Tool
	tool.Output, tool.Error = "", "" // a result replaces the one before it
	switch {
	case err == nil:
		tool.Status, tool.Output = timeline.StatusOK, output
	case errors.Is(err, context.Canceled):
		tool.Status = timeline.StatusInterrupted
	case errors.Is(err, ErrDenied):
		tool.Status = timeline.StatusDenied
	default:
		tool.Status, tool.Error = timeline.StatusFailed, err.Error()
	}
	tool.EndT = u.e.now
	tool.DurationMS = tool.EndT - tool.StartT
	u.bump(it)
}

// Asked shows that the library asks the user to approve call id: its row
// awaits approval (a row with a result already keeps it).
func (u *UI) Asked(id string) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	u.status(id, statusPending)
}

// Approved shows that the user approved call id: its row runs again (a
// row with a result already keeps it).
func (u *UI) Approved(id string) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	u.status(id, statusRunning)
}

// Interrupted shows that the user's cancel stopped the run: text still
// growing is marked cut off, and an Interrupted notice with the reason the
// app had follows. Under Config.ReportsOnlySuccess the rows still live are
// shown interrupted first (InterruptLive): the library reports nothing for
// the calls it cancelled.
func (u *UI) Interrupted() {
	if u.e.cfg.ReportsOnlySuccess {
		u.InterruptLive()
	}
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	if n := len(u.items); u.open && n > 0 && u.items[n-1].Kind == timeline.ItemAssistant {
		u.items[n-1].Interrupted = true
		u.bump(u.items[n-1])
	}
	u.push(&timeline.Item{Kind: timeline.ItemNotice, Level: timeline.NoticeInterrupted, Text: u.reason})
}

// Error shows a notice for an error the library reported.
func (u *UI) Error(msg string) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	u.push(&timeline.Item{Kind: timeline.ItemNotice, Level: timeline.NoticeError, Text: msg})
}

// Done shows the end of a turn the library completed.
func (u *UI) Done() {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	u.push(&timeline.Item{Kind: timeline.ItemSeparator, Text: "Turn complete"})
}

// status moves call id's row to a live status (the permission service's
// request, then its answer). The caller holds the lock.
func (u *UI) status(id string, s timeline.Status) {
	if tool := u.row(id); tool != nil && !tool.Status.Terminal() {
		tool.Status = s
		u.changed(id)
	}
}

// row returns the tool of the latest row of call id.
func (u *UI) row(id string) *timeline.Tool {
	for i := len(u.items) - 1; i >= 0; i-- {
		if t := u.items[i].Tool; t != nil && t.ID == id {
			return t
		}
	}
	return nil
}

// changed bumps the version of the latest row of call id.
func (u *UI) changed(id string) {
	for i := len(u.items) - 1; i >= 0; i-- {
		if t := u.items[i].Tool; t != nil && t.ID == id {
			u.bump(u.items[i])
			return
		}
	}
}

func (u *UI) push(it *timeline.Item) {
	u.bump(it)
	u.items = append(u.items, it)
	u.open = false
}

func (u *UI) bump(it *timeline.Item) {
	u.ver++
	it.Version = u.ver
}

// user shows the user's message and closes the text item (the app does it).
func (u *UI) user(text string) {
	u.push(&timeline.Item{Kind: timeline.ItemUser, Text: text})
}

// snapshot copies the timeline as it is now. Items are only appended and
// every change bumps an item's version, so an item whose version the last
// snapshot already has is shared with it: each snapshot costs what changed,
// and the harness compares only items whose pointer or version moved.
func (u *UI) snapshot() *timeline.Timeline {
	items := make([]*timeline.Item, len(u.items))
	for i, it := range u.items {
		if i < len(u.shot) && u.shot[i].Version == it.Version {
			items[i] = u.shot[i]
			continue
		}
		items[i] = it.Clone()
	}
	u.shot = items
	return &timeline.Timeline{Now: u.e.now, Items: items}
}
