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
	s.emit(t, event.Event{
		Kind:  event.KindToolStart,
		ID:    f.id,
		Name:  name,
		Args:  toolArgs(f),
		Batch: fmt.Sprintf("prompt-%d.%d", s.turn, s.runK),
		Extra: extra,
	})
	s.tools[f.id] = &tool{turn: s.turn}
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
	tl := s.tools[f.id]
	hasContent, hasRaw := present(f.raw.Content), present(f.raw.RawOutput)
	var ctext, rtext string
	var placeholder, rawComplete bool
	if hasContent {
		ctext, placeholder = toolContentText(f.content)
	}
	if hasRaw {
		rtext, rawComplete = rawOutputText(f.raw.RawOutput)
	}
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
	keepRaw := func() { details["rawOutput"] = json.RawMessage(compact(f.raw.RawOutput)) }

	switch acpsdk.ToolCallStatus(f.status) {
	case acpsdk.ToolCallStatusCompleted:
		ev := event.Event{Kind: event.KindToolDone, ID: f.id, OK: true}
		switch {
		case hasContent:
			ev.Output = ctext
			if hasRaw {
				keepRaw()
			}
		case hasRaw:
			ev.Output = rtext
			if !rawComplete {
				keepRaw()
			}
		}
		s.done(t, tl, ev, details)
		return
	case acpsdk.ToolCallStatusFailed:
		ev := event.Event{Kind: event.KindToolDone, ID: f.id, OK: false}
		switch {
		case hasContent:
			ev.Error = ctext
			if hasRaw {
				ev.Output = rtext
				if !rawComplete {
					keepRaw()
				}
			}
		case hasRaw:
			ev.Error = rtext
			if !rawComplete {
				keepRaw()
			}
		}
		s.done(t, tl, ev, details)
		return
	case "", acpsdk.ToolCallStatusPending, acpsdk.ToolCallStatusInProgress:
	default:
		s.problem("tool call %s: unknown status %q (mapped as progress)", f.id, f.status)
	}
	if f.hasStatus {
		details["status"] = f.status
	}
	ev := event.Event{Kind: event.KindToolProgress, ID: f.id}
	if hasContent || hasRaw {
		full := ctext
		if !hasContent {
			full = rtext
			if !rawComplete {
				keepRaw()
			}
		} else if hasRaw {
			keepRaw()
		}
		shown := ""
		if tl != nil {
			shown, tl.shown = tl.shown, full
		}
		ev.Output = strings.TrimPrefix(full, shown)
		if len(full) < len(shown) || full[:len(shown)] != shown {
			ev.Output = full // replaced, not extended: shown whole (see the package doc)
		}
	}
	if len(details) > 0 {
		ev.Details = mustJSON(details)
	}
	s.emit(t, ev)
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

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return raw
}

// --- permissions ---------------------------------------------------------------

// askPermission maps session/request_permission: permission asked for its
// tool call. A tool call the turn has not announced yet is started from
// the request's toolCall (some agents ask before they announce).
func (s *state) askPermission(t int64, params json.RawMessage, req *request) {
	var p acpsdk.RequestPermissionRequest
	if !s.decode(acpsdk.ClientMethodSessionRequestPermission, params, &p) {
		return
	}
	s.session(string(p.SessionId))
	var raw struct {
		ToolCall rawToolCall `json:"toolCall"`
	}
	_ = json.Unmarshal(params, &raw)
	tc := p.ToolCall
	id := string(tc.ToolCallId)
	if req != nil {
		req.toolID = id
		req.options = make(map[acpsdk.PermissionOptionId]acpsdk.PermissionOptionKind, len(p.Options))
		for _, o := range p.Options {
			req.options[o.OptionId] = o.Kind
		}
	}
	if tl := s.tools[id]; tl == nil || tl.turn != s.turn || !s.turnOpen {
		f := toolFields{id: id, locations: tc.Locations, raw: raw.ToolCall}
		if tc.Title != nil {
			f.title = *tc.Title
		}
		if tc.Kind != nil {
			f.kind = string(*tc.Kind)
		}
		s.startTool(t, f, []event.Field{field("announced_by", acpsdk.ClientMethodSessionRequestPermission)})
	}
	s.emit(t, event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionAsked})
}

// permissionDone maps the client's answer: an allow option → granted, a
// reject option or the cancelled outcome → denied.
func (s *state) permissionDone(t int64, req *request, env *envelope) {
	if env.Error != nil {
		s.ignore(req.method + " error")
		return
	}
	var r acpsdk.RequestPermissionResponse
	if !s.decode("session/request_permission result", env.Result, &r) {
		return
	}
	ev := event.Event{Kind: event.KindPermission, ID: req.toolID}
	switch o := r.Outcome; {
	case o.Cancelled != nil:
		ev.State = event.PermissionDenied
		ev.Extra = append(ev.Extra, field("outcome", "cancelled"))
	case o.Selected != nil:
		kind, ok := req.options[o.Selected.OptionId]
		if !ok {
			s.problem("permission answer selects option %q, which the request did not offer", o.Selected.OptionId)
			return
		}
		switch kind {
		case acpsdk.PermissionOptionKindAllowOnce, acpsdk.PermissionOptionKindAllowAlways:
			ev.State = event.PermissionGranted
		case acpsdk.PermissionOptionKindRejectOnce, acpsdk.PermissionOptionKindRejectAlways:
			ev.State = event.PermissionDenied
		default:
			s.problem("permission option %q has unknown kind %q", o.Selected.OptionId, kind)
			return
		}
		ev.Extra = append(ev.Extra, field("option", string(o.Selected.OptionId)))
	default:
		s.problem("permission answer without an outcome")
		return
	}
	s.emit(t, ev)
	if tl := s.tools[req.toolID]; tl != nil && ev.State == event.PermissionDenied {
		tl.terminal = true
	}
}
