// Package claudestream imports Claude Code stream-json (`claude -p
// --output-format stream-json`, the Agent SDK message stream) as canonical
// toolsim traces.
//
// # Detection
//
// A head (first 64 lines at most) where some line has top-level "type"
// system or result with "session_id", or assistant or user with both
// "session_id" and "parent_tool_use_id", and no line has the transcript
// members "parentUuid" or "sessionId". Lines cut off by the head size are
// judged on the members read before the cut.
//
// # Order and clock
//
// Lines are mapped in file order: the stream is already in the order the
// messages happened. stream-json carries no timestamps, so the synthetic
// clock is used: each line is 1 ms after the previous event
// (importer.SyntheticStep), and the events one line produces share its t.
// Durations are therefore counts of lines, not real time.
//
// # Mapping
//
//	source                                          canonical events
//	system, subtype init                            header meta: session_id, model, cwd,
//	                                                  permission_mode, claude_code_version, tools
//	user message with text (string content or       turn_end (if an assistant turn is open),
//	  text blocks; images as "[image]")               turn_start{role:user}, user{text}, turn_end
//	first assistant content after a prompt (or at   turn_start{role:assistant}
//	  the start of a run: -p streams have no
//	  prompt line)
//	assistant text block                            text{text}
//	assistant thinking / redacted_thinking          thinking{text} / thinking{"[redacted thinking]"}
//	assistant tool_use (server_tool_use,            tool_start{id, name, args: input, batch:
//	  mcp_tool_use)                                   message.id}; parallel calls are separate lines
//	                                                  sharing message.id: one batch
//	assistant *_tool_result block (server tools)    tool_done{id: tool_use_id, ok: !is_error}
//	user tool_result                                tool_done{id: tool_use_id, ok: !is_error,
//	                                                  output: the text (text parts joined by "\n",
//	                                                  other parts as "[type]"), error: the text when
//	                                                  is_error, duration_ms: tool_use_result.durationMs}
//	tool_result, is_error, saying the user          permission{id, state: denied}, the text in
//	  rejected it or permission was not granted       Extra "result" (no tool_done)
//	  (same texts as claudetranscript)
//	tool_result with tool_use_result.interrupted,   tool_progress{id, output: partial text}, then
//	  or whose text is an interrupt marker            one cancel (reason "tool interrupted", or the
//	                                                  marker that follows, merged), then turn_end
//	user text "[Request interrupted by user]" or    cancel{reason: the marker}, turn_end
//	  "[Request interrupted by user for tool use]"
//	lines with parent_tool_use_id (a sub-agent)     as above, with parent = parent_tool_use_id on
//	                                                  tool_start; its text becomes
//	                                                  tool_progress{id: the Task, output: text}; its
//	                                                  prompt, thinking and markers are counted as
//	                                                  ignored
//	result                                          permission{id, state: denied} for each
//	                                                  permission_denials entry whose call is still
//	                                                  live; error{message: "run ended: <subtype>…"}
//	                                                  when subtype is not success or is_error is
//	                                                  set; then turn_end. Meta "results" keeps
//	                                                  subtype, is_error, num_turns, duration_ms,
//	                                                  total_cost_usd, and the permission_denials it
//	                                                  could not map (call unknown, or already
//	                                                  answered other than by a denial); denials
//	                                                  already shown by their result add nothing
//	end of file without a result line               nothing: the run was cut off, the turn stays
//	                                                  open and its tools live
//
// Extra fields: "uuid" (the source line) on every mapped event; "result"
// on permission; "source": "permission_denials" on denials taken from the
// result line; "interrupted_ids" and "marker_uuid" on a cancel; "input" on
// tool_start when the input is not an object (args is then {}).
//
// # Ignored lines
//
// Counted in header meta "ignored": stream_event (partial-message deltas
// from --include-partial-messages; the whole message follows),
// system lines other than init and compact_boundary
// ("system:<subtype>"), whitespace-only thinking ("empty thinking"), and
// the sub-agent prompts, thinking and markers named above. A
// compact_boundary line (/compact) ends the open turn and becomes a
// compact event: a compaction marker (stream-json does not carry the
// summary).
//
// Anything else is a problem (Builder.Problem, with the line number) and
// the import goes on: a line that is not JSON (a torn last line is named
// as such), a line of unknown type or without one, a member of the wrong
// type (the rest of the line is still mapped), a content block of unknown
// type.
//
// # Known limits
//
//   - No timestamps: every duration is on the synthetic clock.
//   - The prompt of a -p run is not in the stream (only with
//     --replay-user-messages), so a run usually starts with the assistant
//     turn.
//   - Decoding uses encoding/json; this format has no throughput target
//     (see claudetranscript for the fast path).
package claudestream
