package executor

import (
	"github.com/toolsim/toolsim/timeline"
)

// Row is one call's row of the UI, as UI.CallRow made it: a handle that
// reaches that row whatever other row shares its id (two calls of one id
// each keep their own).
type Row struct {
	u    *UI
	item *timeline.Item
}

// CallRow shows a tool call, running, on a row of its own, as Call does,
// and returns the row's handle.
func (u *UI) CallRow(id, name string) *Row {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	it := &timeline.Item{Kind: timeline.ItemTool, Tool: &timeline.Tool{
		ID: id, Name: name, Status: timeline.StatusRunning, StartT: u.e.now}}
	u.push(it)
	return &Row{u: u, item: it}
}

// Result shows the result the library reported on this row, as
// UI.Result does on the latest row of an id.
func (r *Row) Result(output string, err error) {
	r.u.e.mu.Lock()
	defer r.u.e.mu.Unlock()
	r.u.settle(r.item, output, err)
}

// Asked shows that the library asks the user to approve this row's call.
func (r *Row) Asked() { r.live(statusPending) }

// Approved shows that the user approved this row's call.
func (r *Row) Approved() { r.live(statusRunning) }

func (r *Row) live(s timeline.Status) {
	r.u.e.mu.Lock()
	defer r.u.e.mu.Unlock()
	if t := r.item.Tool; !t.Status.Terminal() {
		t.Status = s
		r.u.bump(r.item)
	}
}

// ResultOf shows a result joined to its call by id and tool name, for a
// library whose results carry both: the oldest row of that id and name
// still live (so two calls of one id, or of one id and name, each get
// one), else the latest row of that id and name. A result that matches
// no row shows nothing.
func (u *UI) ResultOf(id, name, output string, err error) {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	var latest *timeline.Item
	for _, it := range u.items {
		t := it.Tool
		if t == nil || t.ID != id || t.Name != name {
			continue
		}
		if !t.Status.Terminal() {
			u.settle(it, output, err)
			return
		}
		latest = it
	}
	if latest != nil {
		u.settle(latest, output, err)
	}
}

// InterruptLive shows every row still live (running, or awaiting
// approval) interrupted: what a UI does at a cancelled end when its
// library reports nothing for the calls it cancelled
// (Config.ReportsOnlySuccess).
func (u *UI) InterruptLive() {
	u.e.mu.Lock()
	defer u.e.mu.Unlock()
	for _, it := range u.items {
		if t := it.Tool; t != nil && !t.Status.Terminal() {
			t.Status, t.EndT = timeline.StatusInterrupted, u.e.now
			t.DurationMS = t.EndT - t.StartT
			u.bump(it)
		}
	}
}
