package browser

import (
	"fmt"

	"github.com/toolsim/toolsim/timeline"
)

// Row is one row a page shows, as its row reader reads it (the page
// contract, package doc).
type Row struct {
	Kind        string `json:"kind"`
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	Status      string `json:"status,omitempty"`
	Text        string `json:"text,omitempty"`
	Level       string `json:"level,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// rowKinds are the row kinds a page may show, as timeline item kinds.
var rowKinds = map[string]timeline.ItemKind{
	"tool": timeline.ItemTool, "assistant": timeline.ItemAssistant, "thinking": timeline.ItemThinking,
	"user": timeline.ItemUser, "notice": timeline.ItemNotice, "separator": timeline.ItemSeparator,
}

// statuses are the statuses a tool row may show.
var statuses = map[string]timeline.Status{
	"running": timeline.StatusRunning, "pending": timeline.StatusPending, "ok": timeline.StatusOK,
	"failed": timeline.StatusFailed, "interrupted": timeline.StatusInterrupted, "denied": timeline.StatusDenied,
}

// Timeline turns rows into a timeline at clock now, one item per row (a
// page shows no groups). started gives each tool id the clock at which a
// row with it first appeared; Timeline adds the ids it meets. A row of an
// unknown kind or status is an error naming it.
func Timeline(rows []Row, now int64, started map[string]int64) (*timeline.Timeline, error) {
	tl := &timeline.Timeline{Items: make([]*timeline.Item, 0, len(rows)), Diagnostics: []timeline.Diagnostic{}, Now: now}
	for i, r := range rows {
		kind, ok := rowKinds[r.Kind]
		if !ok {
			return nil, fmt.Errorf("row %d: unknown kind %q (want tool, assistant, thinking, user, notice or separator)", i, r.Kind)
		}
		it := &timeline.Item{Kind: kind, Text: r.Text, Level: r.Level, Interrupted: r.Interrupted, Version: 1}
		if kind == timeline.ItemTool {
			st, ok := statuses[r.Status]
			if !ok {
				return nil, fmt.Errorf("row %d (tool %q): unknown status %q (want running, pending, ok, failed, interrupted or denied)", i, r.ID, r.Status)
			}
			t0, seen := started[r.ID]
			if !seen {
				t0, started[r.ID] = now, now
			}
			it.Text, it.Level, it.Interrupted = "", "", false
			it.Tool = &timeline.Tool{ID: r.ID, Name: r.Name, Status: st, StartT: t0}
		}
		tl.Items = append(tl.Items, it)
	}
	return tl, nil
}
