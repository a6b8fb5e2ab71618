// Package codexexec imports `codex exec --json` event streams as canonical
// toolsim traces.
//
// The stream is JSON Lines, one {"type": …} event per line: thread.started,
// turn.started, turn.completed, turn.failed, item.started, item.updated,
// item.completed (each carrying an "item" with an "id" and a "type"),
// item.plan.delta, request_user_input and error. Detection wants the head's
// complete lines to be such events, one of them a thread.*, turn.* or
// item.* event.
//
// # Mapping
//
//	codex exec event                  canonical events
//	turn.started                      turn_start{assistant} (turn_end first if a turn is open:
//	                                  Extra "ended_by": "turn.started")
//	turn.completed                    turn_end (usage in Extra)
//	turn.failed                       error{message: error.message}, turn_end
//	error                             error{message}
//	item agent_message / plan         text (the part of item.text not emitted yet)
//	item reasoning                    thinking (idem)
//	item error                        error{message} on item.completed
//	tool items (below), first seen    tool_start{id: item.id, name, args}
//	tool item item.updated            tool_progress{output: what aggregated_output gained;
//	                                  details: items / agents_states when the item has them}
//	tool item item.completed          tool_done{ok, output, error} (status, exit_code and an
//	                                  MCP result's raw content in Extra)
//	command_execution declined        permission{denied} instead of tool_done
//
// Tool items and their names and args:
//
//	command_execution   shell        {"command": item.command}
//	mcp_tool_call       item.tool    item.arguments (plus "server")
//	web_search          web_search   {"query", "action"}
//	file_change         apply_patch  {"changes"}
//	todo_list           update_plan  {"items"} (a meta tool, never grouped)
//	collab_tool_call    item.tool    {"prompt", "receiver_thread_ids"}
//
// An item seen first in item.completed (file_change is only ever reported
// that way) gets its tool_start and tool_done together. ok is false when
// status is "failed", when exit_code is non-zero (error "exit code N",
// followed by the first line of the output) or when the item has an error
// (its message). The stream has no batch ids: tools group by adjacency.
// Items of the older shape ("item_type" instead of "type",
// assistant_message) are read too.
//
// # Turns
//
// A turn is turn.started … turn.completed / turn.failed. A stream cut off
// before turn.completed (the process was killed) gets no turn_end: a replay
// shows what was live at that moment, tools still running included. Output
// before any turn.started opens a turn.
//
// # Clock
//
// The stream carries no timestamps: the synthetic clock gives each event
// 1 ms more than the previous one, so durations count events, not time.
//
// # Ignored records
//
// Counted in the header's meta "ignored": thread.started (its thread_id
// goes to meta "thread_id"), item.plan.delta and request_user_input.
//
// # Problems
//
// A line that is not JSON (a torn last line included), an unknown event or
// item type, an item event without an item or without an item id is
// reported with its line number and skipped; a member of an unexpected
// JSON type is reported and left out, and the rest is mapped. The import
// goes on.
//
// # Limits
//
// The pre-0.44 stream shape ({"id":…,"msg":{"type":…}}) is not supported.
// The prompt is not part of the stream, so there is no user turn.
package codexexec
