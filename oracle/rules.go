package oracle

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// MinGroup is the fewest tools a tool_group may hold (§5.3).
const MinGroup = 2

// allowed lists the non-terminal status moves of docs/timeline.md.
var allowed = map[[2]timeline.Status]bool{
	{timeline.StatusRunning, timeline.StatusPending}: true,
	{timeline.StatusPending, timeline.StatusRunning}: true,
}

// Move checks one tool's status change from before to after (§5.2): it
// returns "" when the move is allowed (staying put is), and otherwise what
// went wrong. An empty before is a tool not seen yet: any status is
// allowed.
func Move(id string, before, after timeline.Status) string {
	switch {
	case before == "" || before == after:
		return ""
	case before.Terminal():
		return fmt.Sprintf("tool %s went from terminal %s to %s", id, before, after)
	case !after.Terminal() && !allowed[[2]timeline.Status{before, after}]:
		return fmt.Sprintf("tool %s moved %s → %s", id, before, after)
	}
	return ""
}

// SmallGroup checks a tool_group's size (§5.3): "" when it holds MinGroup
// tools or more, and otherwise what went wrong.
func SmallGroup(members int) string {
	if members >= MinGroup {
		return ""
	}
	return fmt.Sprintf("a tool_group holds %d tools", members)
}

// EndsTurn reports whether no tool may be live after an event of kind k
// (§5.5). The end of the stream is such a point too; callers that mark it
// with an event of their own check it themselves.
func EndsTurn(k event.Kind) bool {
	return k == event.KindTurnEnd || k == event.KindCancel
}

// StillLive reports a tool live after the event (or end) named after,
// against §5.5.
func StillLive(id string, status timeline.Status, after string) string {
	return fmt.Sprintf("tool %s is still %s after %s", id, status, after)
}
