package acp

import (
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
)

// askPermission maps session/request_permission: permission asked for its
// tool call. A tool call the turn has not announced yet is started from
// the request's toolCall (some agents ask before they announce).
func (s *state) askPermission(t int64, params json.RawMessage, req *request) {
	var p acpsdk.RequestPermissionRequest
	if !s.decode(acpsdk.ClientMethodSessionRequestPermission, params, &p) {
		return
	}
	s.session(string(p.SessionId))
	rawCall := rawToolCallOf(params, "toolCall", &s.members)
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
		f := toolFields{id: id, locations: tc.Locations, raw: rawCall}
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
