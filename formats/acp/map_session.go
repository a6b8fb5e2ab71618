package acp

import (
	"encoding/json"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// initialize maps an initialize request: its protocol version and client
// go to the header meta.
func (s *state) initialize(params json.RawMessage) {
	method := acpsdk.AgentMethodInitialize
	s.ignore(method)
	var p acpsdk.InitializeRequest
	if !s.decode(method, params, &p) {
		return
	}
	s.meta["protocolVersion"] = int(p.ProtocolVersion)
	if p.ClientInfo != nil {
		s.meta["client"] = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
	}
}

// newSession maps a session/new request: its cwd goes to the header meta.
func (s *state) newSession(params json.RawMessage) {
	method := acpsdk.AgentMethodSessionNew
	s.ignore(method)
	var p acpsdk.NewSessionRequest
	if s.decode(method, params, &p) && p.Cwd != "" {
		s.meta["cwd"] = p.Cwd
	}
}

// loadSession maps a session/load request: its cwd and session id go to
// the header meta.
func (s *state) loadSession(params json.RawMessage) {
	method := acpsdk.AgentMethodSessionLoad
	s.ignore(method)
	var p acpsdk.LoadSessionRequest
	if s.decode(method, params, &p) {
		if p.Cwd != "" {
			s.meta["cwd"] = p.Cwd
		}
		s.session(string(p.SessionId))
	}
}

// otherResponse maps the response to a request that is neither a prompt
// nor a permission request: initialize and session/new results go to the
// header meta, and a session/load result closes the replayed history.
func (s *state) otherResponse(t int64, req *request, env *envelope) {
	if env.Error != nil {
		s.ignore(req.method + " error")
		return
	}
	s.ignore(req.method + " result")
	switch req.method {
	case acpsdk.AgentMethodInitialize:
		var r acpsdk.InitializeResponse
		if s.decode(req.method+" result", env.Result, &r) {
			s.meta["protocolVersion"] = int(r.ProtocolVersion)
			if r.AgentInfo != nil {
				s.meta["agent"] = strings.TrimSpace(r.AgentInfo.Name + " " + r.AgentInfo.Version)
			}
		}
	case acpsdk.AgentMethodSessionNew:
		var r acpsdk.NewSessionResponse
		if s.decode(req.method+" result", env.Result, &r) {
			s.session(string(r.SessionId))
		}
	case acpsdk.AgentMethodSessionLoad:
		// The history replay is over: close the turn it opened.
		if s.turnOpen && s.turnImplicit {
			s.endTurn(t)
		}
	}
}

// session notes a session id for the header.
func (s *state) session(id string) {
	if id == "" {
		return
	}
	for _, have := range s.sessions {
		if have == id {
			return
		}
	}
	s.sessions = append(s.sessions, id)
}
