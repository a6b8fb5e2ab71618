package engine

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/timeline"
)

// The seed 003 contract: progress details may carry
// {"ui":{"kind":"agent_delegation","mode":...,"items":[...],"activeId":...}}.
// The guards read the payload with the reflection-free scanner: details
// stream in on every progress update, so this is a hot path.

// Delegation applies the seed 003 type guards to a progress details object.
// It returns (nil, false) when the details carry no delegation payload (no
// `ui` object, or another ui kind), (nil, true) when they claim to be an
// agent delegation but do not match the contract, and the parsed steps
// otherwise. Optional members of the wrong type (preview, activeId) are
// ignored, as the seed's guards do. Member names match exactly; when a
// name repeats, the last one counts.
func Delegation(details json.RawMessage) (d *timeline.Delegation, bad bool) {
	var buf [8]jsonscan.Member
	top, err := jsonscan.Object(details, buf[:0])
	ui := member(top, "ui")
	if err != nil || len(ui) == 0 || ui[0] != '{' {
		return nil, false
	}
	var ubuf [8]jsonscan.Member
	fields, _ := jsonscan.Object(ui, ubuf[:0])
	if kind, ok := jsonscan.String(member(fields, "kind")); !ok || kind != "agent_delegation" {
		return nil, false
	}
	mode, ok := jsonscan.String(member(fields, "mode"))
	items := member(fields, "items")
	if !ok || !validMode(mode) || len(items) == 0 || items[0] != '[' {
		return nil, true
	}
	active, _ := jsonscan.String(member(fields, "activeId"))
	d = &timeline.Delegation{Mode: mode, ActiveID: active, Steps: []timeline.Step{}}
	elems, _ := jsonscan.Array(items, nil)
	for _, el := range elems {
		step, ok := parseStep(el)
		if !ok {
			return nil, true
		}
		d.Steps = append(d.Steps, step)
	}
	return d, false
}

// parseStep reads one delegation item: id, agent, task and a known status
// are required strings; preview is optional.
func parseStep(el []byte) (timeline.Step, bool) {
	if len(el) == 0 || el[0] != '{' {
		return timeline.Step{}, false
	}
	var buf [8]jsonscan.Member
	fields, _ := jsonscan.Object(el, buf[:0])
	var s timeline.Step
	var ok [4]bool
	s.ID, ok[0] = jsonscan.String(member(fields, "id"))
	s.Agent, ok[1] = jsonscan.String(member(fields, "agent"))
	s.Task, ok[2] = jsonscan.String(member(fields, "task"))
	s.Status, ok[3] = jsonscan.String(member(fields, "status"))
	s.Preview, _ = jsonscan.String(member(fields, "preview"))
	return s, ok[0] && ok[1] && ok[2] && ok[3] && stepStatus(s.Status)
}

// member returns the raw value of the last member with the name, or nil.
func member(ms []jsonscan.Member, name string) []byte {
	var val []byte
	for _, m := range ms {
		if len(m.Key) >= 2 && string(m.Key[1:len(m.Key)-1]) == name {
			val = m.Val
		}
	}
	return val
}

func validMode(m string) bool {
	return m == "single" || m == "parallel" || m == "chain"
}

func stepStatus(s string) bool {
	switch s {
	case timeline.StepPending, timeline.StepRunning, timeline.StepOK, timeline.StepError:
		return true
	}
	return false
}
