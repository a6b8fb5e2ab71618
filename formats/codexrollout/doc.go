// Package codexrollout imports Codex CLI rollouts
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl) as canonical toolsim
// traces.
//
// A rollout is JSON Lines; every line is
// {"timestamp":"RFC 3339","type":T,"payload":{…}} with T one of
// session_meta, response_item, event_msg, turn_context, compacted.
// Detection looks at the start of the first non-blank line only.
//
// # Mapping
//
//	rollout record                               canonical events
//	response_item message role=user (a prompt)   [turn_end] turn_start{user} user turn_end
//	response_item message role=assistant         [turn_start{assistant}] text (phase kept in Extra)
//	response_item reasoning with summary text    thinking (the summary parts, or else the raw
//	                                             reasoning text, joined by blank lines)
//	response_item function_call                  tool_start{id: call_id, name, args, batch}
//	response_item custom_tool_call               tool_start (args from "input")
//	response_item local_shell_call               tool_start{name: local_shell, args: action}
//	response_item web_search_call                tool_start{name: web_search, args: action} + tool_done
//	response_item function_call_output,          tool_done{id: call_id, ok, output, error,
//	  custom_tool_call_output                      duration_ms} (exit_code in Extra)
//	event_msg turn_aborted                       cancel{reason}
//	event_msg task_complete / turn_complete      turn_end
//	event_msg error                              error{message}
//
// Arguments: the arguments string is parsed; when it is not a JSON object
// it becomes {"input": "…"} with Extra "args_wrapped": true. A call
// without any id (no call_id; for local_shell_call and web_search_call no
// item id either) gets "codex-call-N" and Extra "generated_id": true; an
// empty call_id is kept as it is, on the call and its output, so that the
// engine reports the fault (missing_id).
//
// Results: the output is a string, a list of content items or an object
// {content, success}. A string holding {"output": …, "metadata":
// {"exit_code": N, "duration_seconds": S}} gives the output text, the exit
// code and the duration; the plain-text shell formats "Exit code: N" /
// "Process exited with code N" (with "Wall time: S seconds") are read too.
// ok is exit_code == 0 when an exit code is known (else true); the
// "aborted" outputs Codex writes for interrupted calls ("aborted by user
// after 0.3s") are no result while the turn is open: the call stays live
// for the turn_aborted that follows, which interrupts it (after the cancel
// such an output is a late failure); a failure's error
// is "exit code N", followed by ": " and the first line of the output
// past Codex's own notes when there is one. The call's record type
// ("call_type") and status are kept in the tool_start's Extra. Results
// pair with their call by call_id only; a result whose call never started
// is still emitted, and the engine reports it.
//
// Batches: each model response gets a key resp-N, set as the batch of its
// calls. A response ends at the records Codex writes between sampling
// requests (token_count, turn_context), at a prompt, at a turn boundary and
// at compaction; tool outputs do not end it (Codex versions differ in
// whether outputs follow each call or all calls). Calls of one response
// that stay adjacent in the timeline therefore form one group.
//
// # Turns
//
// The assistant turn opens at the first model output after a prompt. It
// ends at task_complete / turn_complete when the rollout records them
// (newer Codex); a task_started that finds the previous turn still open
// ends it too (Extra "ended_by"). Older rollouts (such as 0.58) record no
// turn end: there, the next prompt ends the previous turn, and the last
// turn of the file is left open (no "Turn complete"), because nothing says
// it finished; calls still unanswered at that point stay live. A prompt
// that arrives inside a running task of a rollout that records the
// lifecycle (task_started without task_complete) was typed into that turn:
// it is a user event with Extra "mid_turn": true, and the turn goes on. A
// prompt after unanswered calls in a rollout without lifecycle records
// (the process was killed, then the session resumed) ends the turn, so the
// engine resolves those calls as interrupted (unfinished_at_turn_end)
// instead of spinning forever.
//
// turn_aborted emits cancel: live calls become interrupted. The aborted
// call's output may follow the marker; it is emitted where it stands, so
// the engine reports it as late_done and the call stays interrupted. The
// aborted turn ends (turn_end, no separator) at the next prompt, task
// start or model output, or at the end of the file.
//
// # Clock
//
// t is milliseconds since the first timestamped line. Lines written out of
// time order are clamped to the previous event's time and keep their own
// time as Extra "src_t" (importer.Builder). A line without a timestamp
// uses the synthetic clock (+1 ms); an unparsable one too, and is reported
// as a problem.
//
// # Ignored records
//
// These carry nothing for the timeline. They are skipped and counted in
// the header's meta "ignored" {"type": count}: session_meta (its id, cwd,
// cli_version, originator, model_provider, source and git go to the header
// meta), turn_context (the first model goes to meta "model"), compacted,
// world_state and token_usage_record (Codex 0.169.0's thread context and
// token counts; its lines also carry an "ordinal" member),
// response_item ghost_snapshot and compaction, reasoning with no readable
// text (encrypted only: "reasoning_without_text"), user messages Codex
// injects (<environment_context>, <user_instructions>, AGENTS.md, …:
// "context_message"), developer/system messages, empty assistant
// messages, and the event_msg records token_count,
// thread_settings_applied, task_started,
// turn_started, the duplicates of response items (user_message,
// agent_message, agent_reasoning, agent_reasoning_raw_content,
// agent_reasoning_section_break, exec_command_begin/end,
// patch_apply_begin/end, mcp_tool_call_begin/end, web_search_begin/end,
// view_image_tool_call, item_started/completed), and markers
// (context_compacted, entered/exited_review_mode, undo_started/completed,
// thread_rolled_back, warning, stream_error, background_event,
// plan_update, turn_diff).
//
// # Problems
//
// A line that is not JSON (a torn last line included), an unknown line,
// response_item or event_msg type, a message with an unknown role, an
// output without call_id, or an unparsable timestamp is reported with its
// line number and skipped (a bad timestamp only falls back to the
// synthetic clock); the import goes on. A payload member of an unexpected
// JSON type is reported and left out, and the rest of the line is mapped.
//
// # Performance
//
// One decoding pass per line into a single payload struct; the value of an
// "encrypted_content" member (half the bytes of a typical rollout) is cut
// before decoding when it is a plain string, since it is never read.
// BenchmarkImport measures the 340 KB sample.
//
// # Limits
//
// Pre-August-2025 rollouts (no timestamp/type/payload envelope) are not
// recognised. Prompts are taken from response_item messages (the event_msg
// user_message duplicates are counted, not used). Sub-agent (collab)
// threads live in their own rollout files and are not linked.
package codexrollout
