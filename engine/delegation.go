package engine

import (
	"encoding/json"
	"strconv"

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

// delegationArgs holds the raw members of a call's arguments that seed
// 003's getAgentDelegationArgs reads. As JSON.parse does, when a name
// repeats the last one counts.
type delegationArgs struct {
	agent, task, tasks, chain []byte
}

// note keeps val when key is one of the delegation members, and reports
// whether it was.
func (d *delegationArgs) note(key, val []byte) bool {
	switch string(key) {
	case "agent":
		d.agent = val
	case "task":
		d.task = val
	case "tasks":
		d.tasks = val
	case "chain":
		d.chain = val
	default:
		return false
	}
	return true
}

// title is the row title seed 003's toolTitle gives a call whose arguments
// have the agent delegation shape, or "" when they do not or it has none.
// The shape (getAgentDelegationArgs): `chain` or `tasks` is an array whose
// every item is an object with string `agent` and `task` (an empty array
// passes), or `agent` and `task` are both non-empty strings. The title:
// `chain (N steps)` for a non-empty chain, else `parallel (N tasks)` for
// non-empty tasks, else the first line of a non-empty agent.
func (d *delegationArgs) title() string {
	if d.agent == nil && d.tasks == nil && d.chain == nil {
		return ""
	}
	chain, chainOK := taskList(d.chain)
	tasks, tasksOK := taskList(d.tasks)
	agent := jsonString(d.agent)
	switch {
	case !chainOK && !tasksOK && (agent == "" || jsonString(d.task) == ""):
		return ""
	case chain > 0:
		return "chain (" + strconv.Itoa(chain) + " steps)"
	case tasks > 0:
		return "parallel (" + strconv.Itoa(tasks) + " tasks)"
	}
	return firstLine(agent)
}

// taskList reports the length of raw when it is a JSON array whose every
// element is a delegation task item; ok is false otherwise.
func taskList(raw []byte) (n int, ok bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return 0, false
	}
	elems, err := jsonscan.Array(raw, nil)
	if err != nil {
		return 0, false
	}
	for _, el := range elems {
		if !taskItem(el) {
			return 0, false
		}
	}
	return len(elems), true
}

// taskItem reports whether el is an object with string `agent` and `task`
// members (the seed's isTaskItem); empty strings count.
func taskItem(el []byte) bool {
	if len(el) == 0 || el[0] != '{' {
		return false
	}
	var agent, task bool
	eachMember(el, func(key, val []byte) {
		switch string(key) {
		case "agent":
			_, agent = jsonscan.String(val)
		case "task":
			_, task = jsonscan.String(val)
		}
	})
	return agent && task
}
