package tui

import (
	"strings"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Role says what a line of the timeline shows, so that the styled layer can
// colour it.
type Role uint8

// Line roles.
const (
	RolePlain       Role = iota // nothing to style
	RoleBlank                   // the blank line between top-level items
	RoleUser                    // user text
	RoleAssistant               // assistant text
	RoleInterrupted             // "│ ⚠ interrupted" after cancelled text
	RoleThinking                // thinking text
	RoleGroup                   // a group header; Status is running while a member is live
	RoleTool                    // a tool row; Status is the tool's
	RoleError                   // a failed tool's error text
	RoleOutput                  // an output snippet line
	RoleStep                    // a delegation step; Status is the step's status
	RoleNotice                  // a notice; Status is interrupted or failed (error)
	RoleSeparator               // "── Turn complete ──"
)

// Line is one line of a plain render and what it shows.
type Line struct {
	Text   string
	Role   Role
	Status timeline.Status // RoleTool, RoleGroup, RoleNotice; RoleStep holds a step status
}

// lineRole is the role of a line before its text is known.
type lineRole struct {
	role   Role
	status timeline.Status
}

// ItemLines renders one top-level item with [render.Item] and gives each
// line its role. The roles come from walking the item the way the renderer
// does; should the two ever disagree on the number of lines, every line is
// left plain rather than coloured wrongly.
func ItemLines(it *timeline.Item, now int64, opts render.Options) []Line {
	text := render.Item(it, now, opts)
	if text == "" {
		return nil
	}
	texts := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	lines := make([]Line, len(texts))
	for i, s := range texts {
		lines[i].Text = s
	}
	switch it.Kind {
	case timeline.ItemUser, timeline.ItemAssistant, timeline.ItemThinking, timeline.ItemNotice, timeline.ItemSeparator:
		textRoles(it, lines)
		return lines
	}
	roles := appendItemRoles(nil, it, opts)
	if len(roles) != len(lines) {
		return lines
	}
	for i, r := range roles {
		lines[i].Role, lines[i].Status = r.role, r.status
	}
	return lines
}

// textRoles gives the lines of a text, notice or separator item their role.
func textRoles(it *timeline.Item, lines []Line) {
	role, status := RolePlain, timeline.Status("")
	switch it.Kind {
	case timeline.ItemUser:
		role = RoleUser
	case timeline.ItemAssistant:
		role = RoleAssistant
	case timeline.ItemThinking:
		role = RoleThinking
	case timeline.ItemSeparator:
		role = RoleSeparator
	case timeline.ItemNotice:
		role, status = RoleNotice, timeline.StatusInterrupted
		if it.Level != timeline.NoticeInterrupted {
			status = timeline.StatusFailed
		}
	}
	for i := range lines {
		lines[i].Role, lines[i].Status = role, status
	}
	if it.Kind == timeline.ItemAssistant && it.Interrupted {
		lines[len(lines)-1].Role = RoleInterrupted
	}
}

// appendItemRoles appends the roles of a tool, meta tool or group item's
// lines, in the order render/tool.go writes them.
func appendItemRoles(roles []lineRole, it *timeline.Item, opts render.Options) []lineRole {
	switch it.Kind {
	case timeline.ItemTool, timeline.ItemMetaTool:
		if it.Tool != nil {
			roles = appendToolRoles(roles, it.Tool, opts)
		}
	case timeline.ItemToolGroup:
		status := timeline.StatusOK
		if it.Live() {
			status = timeline.StatusRunning
		}
		roles = append(roles, lineRole{RoleGroup, status})
		for _, t := range it.Tools {
			roles = appendToolRoles(roles, t, opts)
		}
	default:
		roles = append(roles, lineRole{RolePlain, ""}) // not under a tool; never expected
	}
	return roles
}

// appendToolRoles appends the roles of a tool row and what goes under it:
// the error, the output snippet, delegation steps, child tools.
func appendToolRoles(roles []lineRole, t *timeline.Tool, opts render.Options) []lineRole {
	roles = append(roles, lineRole{RoleTool, t.Status})
	if t.Status == timeline.StatusFailed && t.Error != "" {
		roles = append(roles, lineRole{RoleError, timeline.StatusFailed})
	}
	if opts.Output && t.Output != "" {
		for range render.Snippet(t.Output) {
			roles = append(roles, lineRole{RoleOutput, ""})
		}
	}
	if d := t.Delegation; d != nil {
		shown := min(len(d.Steps), render.MaxDelegationRows)
		for _, s := range d.Steps[:shown] {
			roles = append(roles, lineRole{RoleStep, timeline.Status(s.Status)})
		}
		if len(d.Steps) > shown {
			roles = append(roles, lineRole{RoleStep, ""})
		}
	}
	for _, c := range t.Children {
		roles = appendItemRoles(roles, c, opts)
	}
	return roles
}

// TimelineLines renders a whole timeline as lines with roles, top-level
// items separated by one blank line, as [render.Render] does.
func TimelineLines(tl *timeline.Timeline, opts render.Options) []Line {
	var lines []Line
	for _, it := range tl.Items {
		item := ItemLines(it, tl.Now, opts)
		if len(item) == 0 {
			continue // a hidden item
		}
		if len(lines) > 0 {
			lines = append(lines, Line{Role: RoleBlank})
		}
		lines = append(lines, item...)
	}
	if legend := render.Legend(tl, opts); legend != "" {
		if len(lines) > 0 {
			lines = append(lines, Line{Role: RoleBlank})
		}
		w := opts.Width
		if w <= 0 {
			w = render.DefaultWidth
		}
		lines = append(lines, Line{Text: render.Fit(legend, w), Role: RoleNotice, Status: timeline.StatusInterrupted})
	}
	return lines
}
