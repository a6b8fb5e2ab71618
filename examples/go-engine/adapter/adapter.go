// Package adapter connects chatui to toolsim: it feeds canonical events
// to a chatui.Transcript and converts its rows to a toolsim timeline, so
// that campaign.Fuzz, harness.Check and harnesstest.ReplayDir can judge it.
package adapter

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/timeline"

	"github.com/toolsim/toolsim/examples/go-engine/chatui"
)

// Options are what chatui supports, for every check of it: each call on
// its own row (no groups), and of the optional fields only errors and
// durations (no streamed output, progress counts or diagnostics).
var Options = harness.Options{
	NoGrouping: true,
	Fields:     []string{"error", "duration_ms"},
}

// Engine is a chatui.Transcript seen as a harness.Engine.
type Engine struct{ T *chatui.Transcript }

// New returns an adapter over an empty transcript.
func New() harness.Engine { return &Engine{T: chatui.New()} }

// Apply feeds one event to the transcript.
func (e *Engine) Apply(ev *event.Event) {
	t := e.T
	t.Tick(ev.T)
	switch ev.Kind {
	case event.KindTurnStart:
		t.BeginTurn(ev.Role == event.RoleUser)
	case event.KindTurnEnd:
		t.EndTurn()
	case event.KindUser:
		t.UserSaid(ev.Text)
	case event.KindText:
		t.Stream(chatui.RowSay, ev.Text)
	case event.KindThinking:
		t.Stream(chatui.RowThink, ev.Text)
	case event.KindError:
		t.StreamFailed(ev.Message)
	case event.KindCancel:
		t.Cancel(ev.Reason)
	case event.KindToolStart:
		t.Start(ev.ID, ev.Name, ev.Parent)
	case event.KindToolDone:
		t.Finished(ev.ID, chatui.Outcome{OK: ev.OK, Problem: ev.Error, Took: ev.DurationMS})
	case event.KindPermission:
		t.Permission(ev.ID, ev.State)
	}
}

// Finish applies the end-of-stream rule.
func (e *Engine) Finish() { e.T.Close() }

// Timeline converts the transcript's rows to a toolsim timeline.
func (e *Engine) Timeline() *timeline.Timeline {
	return &timeline.Timeline{Now: e.T.Clock(), Items: items(e.T.Rows())}
}

func items(rows []*chatui.Row) []*timeline.Item {
	out := make([]*timeline.Item, 0, len(rows))
	for _, r := range rows {
		out = append(out, item(r))
	}
	return out
}

// kinds maps chatui's row kinds to timeline item kinds.
var kinds = map[chatui.RowKind]timeline.ItemKind{
	chatui.RowUser: timeline.ItemUser, chatui.RowSay: timeline.ItemAssistant,
	chatui.RowThink: timeline.ItemThinking, chatui.RowTurnDone: timeline.ItemSeparator,
}

func item(r *chatui.Row) *timeline.Item {
	switch r.Kind {
	case chatui.RowCall:
		return &timeline.Item{Kind: timeline.ItemTool, Tool: tool(r.Call)}
	case chatui.RowError:
		return &timeline.Item{Kind: timeline.ItemNotice, Text: r.Text, Level: timeline.NoticeError}
	case chatui.RowStopped:
		return &timeline.Item{Kind: timeline.ItemNotice, Text: r.Text, Level: timeline.NoticeInterrupted}
	}
	return &timeline.Item{Kind: kinds[r.Kind], Text: r.Text, Interrupted: r.Cut}
}

// statuses maps chatui's call states to timeline statuses.
var statuses = map[chatui.State]timeline.Status{
	chatui.Running: timeline.StatusRunning, chatui.Asking: timeline.StatusPending,
	chatui.Succeeded: timeline.StatusOK, chatui.Failed: timeline.StatusFailed,
	chatui.Stopped: timeline.StatusInterrupted, chatui.Refused: timeline.StatusDenied,
}

func tool(c *chatui.Call) *timeline.Tool {
	t := &timeline.Tool{ID: c.ID, Name: c.Name, Status: statuses[c.State], StartT: c.Began,
		Error: c.Problem, Children: items(c.Subcalls)}
	if !c.State.Live() {
		t.EndT, t.DurationMS = c.Ended, c.Took
	}
	return t
}
