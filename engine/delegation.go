package engine

import (
	"encoding/json"

	"github.com/toolsim/toolsim/timeline"
)

// The seed 003 contract: progress details may carry
// {"ui":{"kind":"agent_delegation","mode":...,"items":[...],"activeId":...}}.

type detailsShape struct {
	UI json.RawMessage `json:"ui"`
}

type uiShape struct {
	Mode     *string         `json:"mode"`
	Items    *[]stepShape    `json:"items"`
	ActiveID json.RawMessage `json:"activeId"`
}

type stepShape struct {
	ID      *string         `json:"id"`
	Agent   *string         `json:"agent"`
	Task    *string         `json:"task"`
	Status  *string         `json:"status"`
	Preview json.RawMessage `json:"preview"`
}

// Delegation applies the seed 003 type guards to a progress details object.
// It returns (nil, false) when the details carry no delegation payload (no
// `ui` object, or another ui kind), (nil, true) when they claim to be an
// agent delegation but do not match the contract, and the parsed steps
// otherwise. Optional members of the wrong type (preview, activeId) are
// ignored, as the seed's guards do.
func Delegation(details json.RawMessage) (d *timeline.Delegation, bad bool) {
	var ds detailsShape
	if json.Unmarshal(details, &ds) != nil || len(ds.UI) == 0 || ds.UI[0] != '{' {
		return nil, false
	}
	var kind struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(ds.UI, &kind) != nil || kind.Kind != "agent_delegation" {
		return nil, false
	}
	var ui uiShape
	if json.Unmarshal(ds.UI, &ui) != nil || ui.Mode == nil || ui.Items == nil {
		return nil, true
	}
	switch *ui.Mode {
	case "single", "parallel", "chain":
	default:
		return nil, true
	}
	d = &timeline.Delegation{Mode: *ui.Mode, ActiveID: optionalString(ui.ActiveID)}
	for _, s := range *ui.Items {
		if s.ID == nil || s.Agent == nil || s.Task == nil || s.Status == nil || !stepStatus(*s.Status) {
			return nil, true
		}
		d.Steps = append(d.Steps, timeline.Step{
			ID: *s.ID, Agent: *s.Agent, Task: *s.Task, Status: *s.Status, Preview: optionalString(s.Preview),
		})
	}
	if d.Steps == nil {
		d.Steps = []timeline.Step{}
	}
	return d, false
}

func stepStatus(s string) bool {
	switch s {
	case timeline.StepPending, timeline.StepRunning, timeline.StepOK, timeline.StepError:
		return true
	}
	return false
}

func optionalString(raw json.RawMessage) string {
	var s string
	if raw != nil && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}
