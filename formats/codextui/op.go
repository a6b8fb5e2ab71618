package codextui

import (
	"sort"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// op maps what the TUI sent to the core: the user's prompts and approval
// answers. Other ops (interrupt, history lookups, ...) are counted.
func (s *state) op(o *payload) error {
	if o == nil || o.Type == "" {
		return s.b.Problem(s.n, "op without a readable payload.type: skipped")
	}
	switch o.Type {
	case "user_input", "user_turn":
		var parts []string
		for _, it := range o.Items {
			if it.Type == "text" && it.Text != "" {
				parts = append(parts, it.Text)
			}
		}
		text := strings.Join(parts, "\n")
		s.prompt(text)
		s.lastPrompt = text
	case "exec_approval", "patch_approval":
		state := event.PermissionGranted
		switch o.Decision {
		case "denied", "abort":
			state = event.PermissionDenied
		}
		s.emit(event.Event{Kind: event.KindPermission, ID: o.ID, State: state,
			Extra: []event.Field{{Key: "decision", Value: mustJSON(o.Decision)}}})
	default:
		s.ignore("op " + o.Type)
	}
	return nil
}

func sortStrings(s []string) { sort.Strings(s) }
