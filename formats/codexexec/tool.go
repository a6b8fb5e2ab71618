package codexexec

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// tool maps the lifecycle of a tool item.
func (s *state) tool(typ, id string, it *item, st *itemState) {
	if !st.started {
		s.openTurn()
		name, args := toolCall(it)
		s.emit(event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: args,
			Extra: []event.Field{field("item_type", it.kind())}})
		st.started = true
	}
	switch typ {
	case "item.updated", "item.started":
		if typ == "item.started" && str(it.AggregatedOut) == "" {
			return
		}
		s.progress(id, it, st)
	case "item.completed":
		if it.Status == "declined" {
			s.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
				Extra: []event.Field{field("status", it.Status)}})
			return
		}
		s.emit(s.done(id, it))
	}
}

// progress emits what aggregated_output gained since the last update, and
// the item's current state as details for the other item types.
func (s *state) progress(id string, it *item, st *itemState) {
	ev := event.Event{Kind: event.KindToolProgress, ID: id}
	if it.AggregatedOut != nil {
		out := *it.AggregatedOut
		if strings.HasPrefix(out, st.output) {
			ev.Output = out[len(st.output):]
		} else {
			// Not an extension of what was shown: keep it whole aside.
			ev.Extra = append(ev.Extra, field("aggregated_output", out))
		}
		st.output = out
	}
	if len(it.Items) > 0 && string(it.Items) != "null" {
		ev.Details = mustObject(map[string]json.RawMessage{"items": compact(it.Items)})
	}
	if len(it.AgentsStates) > 0 && string(it.AgentsStates) != "null" {
		ev.Details = mustObject(map[string]json.RawMessage{"agents_states": compact(it.AgentsStates)})
	}
	s.emit(ev)
}

// done builds the tool_done of a completed item.
func (s *state) done(id string, it *item) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: id, OK: true}
	if it.AggregatedOut != nil {
		ev.Output = *it.AggregatedOut
	}
	if it.Status != "" {
		ev.Extra = append(ev.Extra, field("status", it.Status))
	}
	if it.Status == "failed" {
		ev.OK, ev.Error = false, "failed"
	}
	if it.ExitCode != nil {
		ev.Extra = append(ev.Extra, field("exit_code", *it.ExitCode))
		if *it.ExitCode != 0 {
			ev.OK, ev.Error = false, "exit code "+strconv.Itoa(*it.ExitCode)
		}
	}
	if msg := errorMessage(it.Error); msg != "" {
		ev.OK, ev.Error = false, msg
	}
	if len(it.Result) > 0 && string(it.Result) != "null" {
		if text, ok := resultText(it.Result); ok {
			ev.Output = text
		}
		ev.Extra = append(ev.Extra, event.Field{Key: "result", Value: compact(it.Result)})
	}
	if !ev.OK && (ev.Error == "failed" || strings.HasPrefix(ev.Error, "exit code ")) {
		if first := firstLine(ev.Output); first != "" {
			ev.Error += ": " + first
		}
	}
	return ev
}

// resultText joins the text of an MCP result's content; ok is false when
// the result does not decode.
func resultText(raw json.RawMessage) (string, bool) {
	var res struct {
		Content []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return "", false
	}
	var texts []string
	for _, c := range res.Content {
		if c.Text != nil {
			texts = append(texts, *c.Text)
		}
	}
	return strings.Join(texts, "\n"), true
}

// toolCall names a tool item and builds its args.
func toolCall(it *item) (string, json.RawMessage) {
	args := map[string]json.RawMessage{}
	put := func(k string, v json.RawMessage) {
		if len(v) > 0 && string(v) != "null" {
			args[k] = compact(v)
		}
	}
	name := it.kind()
	switch name {
	case "command_execution":
		name = "shell"
		put("command", it.Command)
	case "mcp_tool_call":
		name = it.Tool
		if name == "" {
			name = "mcp_tool_call"
		}
		args = mcpArgs(it, args, put)
	case "web_search":
		if it.Query != nil {
			args["query"] = mustObject(*it.Query)
		}
		put("action", it.Action)
	case "file_change":
		name = "apply_patch"
		put("changes", it.Changes)
	case "todo_list":
		name = "update_plan" // a meta tool: the plan Codex keeps
		put("items", it.Items)
	case "collab_tool_call":
		if it.Tool != "" {
			name = it.Tool
		}
		if it.Prompt != nil {
			args["prompt"] = mustObject(*it.Prompt)
		}
		put("receiver_thread_ids", it.ReceiverThreads)
	}
	return name, mustObject(args)
}

// mcpArgs builds the args of an MCP tool call: its arguments object (else
// the arguments under "arguments"), with the server unless an argument
// takes the name.
func mcpArgs(it *item, args map[string]json.RawMessage, put func(string, json.RawMessage)) map[string]json.RawMessage {
	if obj := compact(it.Arguments); len(obj) > 0 && obj[0] == '{' {
		var m map[string]json.RawMessage
		if json.Unmarshal(obj, &m) == nil {
			args = m
		}
	} else {
		put("arguments", it.Arguments)
	}
	if it.Server != "" {
		if _, taken := args["server"]; !taken {
			args["server"] = mustObject(it.Server)
		}
	}
	return args
}
