package codexrollout

import (
	"encoding/json"
)

// sessionMeta keeps a session_meta line's members in the header meta.
func (s *state) sessionMeta(p *payload) {
	s.ignore("session_meta")
	for _, m := range []struct {
		key string
		val json.RawMessage
	}{
		{"session_id", p.ID}, {"cwd", p.Cwd}, {"cli_version", p.CLIVersion}, {"originator", p.Originator},
		{"model_provider", p.ModelProvider}, {"session_source", p.Source}, {"git", p.Git}, {"model", p.Model},
	} {
		if len(m.val) > 0 && string(m.val) != "null" {
			if _, have := s.meta[m.key]; !have {
				s.meta[m.key] = m.val
			}
		}
	}
}

// turnContext maps a turn_context line: it ends the model response, and
// gives the model when session_meta did not.
func (s *state) turnContext(p *payload) {
	s.ignore("turn_context")
	s.inResp = false
	if _, have := s.meta["model"]; !have && len(p.Model) > 0 && string(p.Model) != "null" {
		s.meta["model"] = p.Model
	}
}
