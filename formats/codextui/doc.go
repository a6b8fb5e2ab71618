// Package codextui imports the Codex TUI session log: the JSONL file the
// Codex terminal UI writes when CODEX_TUI_RECORD_SESSION is set (its own
// TUI tests replay such logs). Format name: codex-tui-session-log.
//
// # Shape
//
// One JSON object per line with "ts" (RFC 3339, milliseconds), "dir"
// (meta, to_tui or from_tui) and "kind":
//
//	meta     session_start {cwd, model, model_provider_id, ...}; session_end
//	to_tui   codex_event {payload: {id, msg: {type, ...}}}: the core's events
//	to_tui   app_event {variant}, key_event, insert_history, log_line, ...: UI noise
//	from_tui op {payload: {type, ...}}: what the user did (user_input, exec_approval,
//	         patch_approval, interrupt, ...)
//
// # Mapping
//
//	op user_input                       turn_start{user}, user{text items joined}, turn_end
//	codex_event user_message            the same, unless it repeats the last user_input
//	task_started                        turn_start{assistant}
//	agent_message_delta / agent_message text (the whole message only when no delta came)
//	agent_reasoning_delta / _reasoning  thinking (likewise)
//	exec_approval_request               tool_start{shell, args command, cwd} when not started,
//	                                    then permission{asked}
//	op exec_approval / patch_approval   permission{granted} (approved, approved_for_session),
//	                                    permission{denied} (denied, abort)
//	exec_command_begin                  tool_start{id call_id, name shell, args {command, cwd}}
//	exec_command_output_delta           tool_progress{output: the chunk, base64-decoded}
//	exec_command_end                    tool_done{ok: exit_code 0, output aggregated_output
//	                                    (else stdout+stderr), error: stderr's first line or
//	                                    "exit code N", duration_ms: duration}
//	apply_patch_approval_request,       tool_start{apply_patch, args {path: first file,
//	  patch_apply_begin                 files}}; patch_apply_end → tool_done{ok: success}
//	mcp_tool_call_begin / _end          tool_start{server.tool, args arguments} / tool_done
//	                                    (result Ok and not isError → ok)
//	web_search_begin / _end             tool_start{web_search}; the end's query arrives as a
//	                                    tool_update{args {query}}, then tool_done{ok}
//	plan_update                         a meta tool update_plan, started and done at once
//	turn_aborted                        cancel{reason}, turn_end
//	task_complete                       turn_end
//	error                               error{message}
//
// Everything else is counted in the header's meta.ignored; a line that is
// not a JSON object, or lacks dir or kind, is reported as a problem.
//
// # Clock
//
// t is milliseconds since the first "ts"; a line without one uses the
// synthetic clock (+1 ms). Tool durations are exec_command_end's and
// mcp_tool_call_end's own "duration" when given.
package codextui
