package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
)

// toolFields is a tool call announcement or patch, whichever message
// carried it (tool_call, tool_call_update, a permission request's
// toolCall). has* report which optional members were given.
type toolFields struct {
	id                           string
	status, title, kind          string
	hasStatus, hasTitle, hasKind bool
	locations                    []acpsdk.ToolCallLocation
	content                      []acpsdk.ToolCallContent
	raw                          rawToolCall // rawInput, rawOutput, content and locations as sent
}

// startTool emits a tool_start. The name is the title (what ACP clients
// show), else the kind, else "tool"; the args are rawInput when it is a
// non-empty object, else an object of title, kind, locations and the first
// location's path (so the summary shows it).
func (s *state) startTool(t int64, f toolFields, extra []event.Field) {
	s.ensureTurn(t)
	if s.runBroken || !s.runLive() {
		s.runK++
		s.run, s.runBroken = nil, false
	}
	s.run = append(s.run, f.id)
	name := f.title
	switch {
	case name != "" && f.kind != "":
		extra = append(extra, field("tool_kind", f.kind))
	case name == "":
		name = f.kind
	}
	if name == "" {
		name = "tool"
	}
	args := toolArgs(f)
	s.emit(t, event.Event{
		Kind:  event.KindToolStart,
		ID:    f.id,
		Name:  name,
		Args:  args,
		Batch: fmt.Sprintf("prompt-%d.%d", s.turn, s.runK),
		Extra: extra,
	})
	s.tools[f.id] = &tool{turn: s.turn, name: name, args: string(args)}
}

// amend emits a tool_update when a patch of a live call (a re-announced
// tool_call, or a tool_call_update) gives it a new title or a non-empty
// rawInput: the call's name and args, not progress. What it used is taken
// out of f. A re-announce that does not end the call carries a description
// in its content, not output: it goes to the update's "content" member.
//
// It reports whether the update said all the patch had to say: no status
// past in_progress, no content, output or locations are left.
func (s *state) amend(t int64, f *toolFields, reannounced bool) bool {
	tl := s.tools[f.id]
	if tl == nil || tl.terminal {
		return false
	}
	ev := event.Event{Kind: event.KindToolUpdate, ID: f.id}
	if f.hasTitle && f.title != "" && f.title != tl.name {
		ev.Name, tl.name = f.title, f.title
	}
	if in := f.raw.RawInput; present(in) && !emptyObject(in) {
		if args := toolArgs(toolFields{raw: rawToolCall{RawInput: in}}); string(args) != tl.args {
			ev.Args, tl.args = args, string(args)
		}
	}
	if ev.Name == "" && ev.Args == nil {
		return false
	}
	f.hasTitle, f.raw.RawInput = false, nil
	if f.hasKind {
		ev.Extra = append(ev.Extra, field("tool_kind", f.kind))
		f.hasKind = false
	}
	if reannounced {
		ev.Extra = append(ev.Extra, field("reannounced", true))
		st := acpsdk.ToolCallStatus(f.status)
		if present(f.raw.Content) && st != acpsdk.ToolCallStatusCompleted && st != acpsdk.ToolCallStatusFailed {
			ev.Extra = append(ev.Extra, event.Field{Key: "content", Value: json.RawMessage(compact(f.raw.Content))})
			f.raw.Content, f.content = nil, nil
		}
	}
	s.emit(t, ev)
	st := acpsdk.ToolCallStatus(f.status)
	return (st == "" || st == acpsdk.ToolCallStatusPending || st == acpsdk.ToolCallStatusInProgress) &&
		!f.hasKind && !present(f.raw.Content) && !present(f.raw.RawOutput) && !present(f.raw.Locations)
}

// runLive reports whether a call of the current run is still live: a new
// call then joins the run (the calls are pending at once); once all are
// done, the next call is a new step.
func (s *state) runLive() bool {
	for _, id := range s.run {
		if tl := s.tools[id]; tl != nil && !tl.terminal {
			return true
		}
	}
	return false
}

// toolArgs builds a tool_start's args (see startTool).
func toolArgs(f toolFields) json.RawMessage {
	in := f.raw.RawInput
	if present(in) && !emptyObject(in) {
		if isObject(in) {
			return json.RawMessage(compact(in))
		}
		raw, _ := json.Marshal(map[string]json.RawMessage{"rawInput": json.RawMessage(compact(in))})
		return raw
	}
	args := map[string]any{}
	if f.title != "" {
		args["title"] = f.title
	}
	if f.kind != "" {
		args["kind"] = f.kind
	}
	if present(f.raw.Locations) {
		args["locations"] = json.RawMessage(compact(f.raw.Locations))
	}
	if len(f.locations) > 0 && f.locations[0].Path != "" {
		args["path"] = f.locations[0].Path
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return json.RawMessage("{}")
	}
	return raw
}

// patch applies a tool_call_update (or a repeated tool_call): every member
// is optional. completed → tool_done ok; failed → tool_done not ok with
// the content text as the error; anything else → tool_progress whose
// output is what the content text adds to what was shown (ACP replaces
// the content collection; the canonical output is a delta). Members with
// no place in the event (title, kind, locations, rawInput, a rawOutput
// that is not the output) go to the progress details, or to the result's
// "acp" member.
func (s *state) patch(t int64, f toolFields, reannounced bool) {
	if s.amend(t, &f, reannounced) {
		return
	}
	tl := s.tools[f.id]
	o := readPatchOutput(f)
	details := patchDetails(f, o.placeholder, reannounced)
	switch acpsdk.ToolCallStatus(f.status) {
	case acpsdk.ToolCallStatusCompleted:
		s.done(t, tl, completedEvent(f, o, details), details)
		return
	case acpsdk.ToolCallStatusFailed:
		s.done(t, tl, failedEvent(f, o, details), details)
		return
	case "", acpsdk.ToolCallStatusPending, acpsdk.ToolCallStatusInProgress:
	default:
		s.problem("tool call %s: unknown status %q (mapped as progress)", f.id, f.status)
	}
	s.emit(t, progressEvent(tl, f, o, details))
}

// patchOutput is the output a patch carries: the text of its content and
// of its rawOutput, each when given.
type patchOutput struct {
	hasContent, hasRaw bool
	ctext, rtext       string
	placeholder        bool // the content has no text of its own
	rawComplete        bool // rtext says all rawOutput does
}

// readPatchOutput reads the content and rawOutput of a patch.
func readPatchOutput(f toolFields) patchOutput {
	var o patchOutput
	o.hasContent, o.hasRaw = present(f.raw.Content), present(f.raw.RawOutput)
	if o.hasContent {
		o.ctext, o.placeholder = toolContentText(f.content)
	}
	if o.hasRaw {
		o.rtext, o.rawComplete = rawOutputText(f.raw.RawOutput)
	}
	return o
}

// patchDetails gathers the members of a patch that have no place in the
// event.
func patchDetails(f toolFields, placeholder, reannounced bool) map[string]any {
	details := map[string]any{}
	if f.hasTitle {
		details["title"] = f.title
	}
	if f.hasKind {
		details["kind"] = f.kind
	}
	if present(f.raw.Locations) {
		details["locations"] = json.RawMessage(compact(f.raw.Locations))
	}
	if present(f.raw.RawInput) {
		details["rawInput"] = json.RawMessage(compact(f.raw.RawInput))
	}
	if placeholder {
		details["content"] = json.RawMessage(compact(f.raw.Content))
	}
	if reannounced {
		details["reannounced"] = true
	}
	return details
}

// keepRaw keeps a patch's rawOutput in its details.
func keepRaw(details map[string]any, f toolFields) {
	details["rawOutput"] = json.RawMessage(compact(f.raw.RawOutput))
}

// completedEvent builds the tool_done of a completed patch: the content
// text as the output, else the rawOutput text.
func completedEvent(f toolFields, o patchOutput, details map[string]any) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: f.id, OK: true}
	switch {
	case o.hasContent:
		ev.Output = o.ctext
		if o.hasRaw {
			keepRaw(details, f)
		}
	case o.hasRaw:
		ev.Output = o.rtext
		if !o.rawComplete {
			keepRaw(details, f)
		}
	}
	return ev
}

// failedEvent builds the tool_done of a failed patch: the content text as
// the error (the rawOutput text as the output), else the rawOutput text
// as the error.
func failedEvent(f toolFields, o patchOutput, details map[string]any) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: f.id, OK: false}
	switch {
	case o.hasContent:
		ev.Error = o.ctext
		if o.hasRaw {
			ev.Output = o.rtext
			if !o.rawComplete {
				keepRaw(details, f)
			}
		}
	case o.hasRaw:
		ev.Error = o.rtext
		if !o.rawComplete {
			keepRaw(details, f)
		}
	}
	return ev
}

// progressEvent builds the tool_progress of a patch that does not end the
// call: its output is what the text adds to what was shown.
func progressEvent(tl *tool, f toolFields, o patchOutput, details map[string]any) event.Event {
	if f.hasStatus {
		details["status"] = f.status
	}
	ev := event.Event{Kind: event.KindToolProgress, ID: f.id}
	if o.hasContent || o.hasRaw {
		full := o.ctext
		if !o.hasContent {
			full = o.rtext
			if !o.rawComplete {
				keepRaw(details, f)
			}
		} else if o.hasRaw {
			keepRaw(details, f)
		}
		ev.Output = progressDelta(tl, full)
	}
	if len(details) > 0 {
		ev.Details = mustJSON(details)
	}
	return ev
}

// progressDelta is what full adds to the output shown so far, or full
// itself when it replaces rather than extends it; full becomes the shown
// output.
func progressDelta(tl *tool, full string) string {
	shown := ""
	if tl != nil {
		shown, tl.shown = tl.shown, full
	}
	out := strings.TrimPrefix(full, shown)
	if len(full) < len(shown) || full[:len(shown)] != shown {
		out = full // replaced, not extended: shown whole (see the package doc)
	}
	return out
}

// done emits a result and notes the tool terminal.
func (s *state) done(t int64, tl *tool, ev event.Event, details map[string]any) {
	if len(details) > 0 {
		ev.Extra = append(ev.Extra, event.Field{Key: "acp", Value: mustJSON(details)})
	}
	s.emit(t, ev)
	if tl != nil {
		tl.terminal = true
	}
}

// mustJSON marshals v, or gives {} when it cannot.
func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return raw
}
