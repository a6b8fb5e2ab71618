// Package claudetranscript imports Claude Code persisted transcripts
// (~/.claude/projects/<project>/<session>.jsonl, and sub-agent files
// agent-<id>.jsonl) as canonical toolsim traces.
//
// # Detection
//
// A head (first 64 lines at most) where some line is an object with
// "parentUuid" and "sessionId" or "isSidechain" at top level, and no line
// has the stream-json members "session_id" or "parent_tool_use_id". Lines
// cut off by the head size are judged on the members read before the cut
// (transcripts write the chain members first).
//
// # Order and clock
//
// Records are mapped in the order of their uuid/parentUuid tree, not in
// file order and not by timestamp: the main conversation is followed
// depth first from its roots (records with no parent, or whose parent is
// not in the file — a resumed session), roots and siblings in file order,
// so a branch made by editing a prompt follows the branch it replaced.
// One exception: Claude Code 2.1.328 hangs each result of a response's
// parallel calls under its own call, beside the next call, so a result of
// an earlier call would follow the whole conversation after it; such a
// leaf result is put back by its timestamp, before the first record after
// its call that is later than it.
// logicalParentUuid links a compact boundary to what came before. Each
// sub-agent chain (isSidechain) is followed the same way on its own and
// interleaved with the main conversation by timestamp, file order
// breaking ties, so a sub-agent block appended after its Task's result
// still runs while the Task is live. A uuid seen twice keeps its first
// record (meta "duplicate_uuids"); records on a parentUuid cycle are
// placed where the cycle's first line is, with a problem.
//
// The clock is the source's: t is milliseconds since the first mapped
// record's timestamp. Results are written in completion order, so a
// record can be stamped earlier than the one before it; the Builder
// clamps t and keeps the original as "src_t". A record without a
// timestamp uses the synthetic clock (1 ms after the previous event); one
// that does not parse is also a problem.
//
// # Mapping
//
//	source                                         canonical events
//	user prompt: a user record with text (string   turn_end (if an assistant turn is open; live
//	  content or text blocks), or images and        tools become unfinished_at_turn_end),
//	  documents as "[image]"/"[document]"           turn_start{role:user}, user{text}, turn_end
//	first assistant content after a prompt         turn_start{role:assistant}
//	assistant text block                           text{text}
//	assistant thinking / redacted_thinking         thinking{text} / thinking{"[redacted thinking]"}
//	assistant tool_use (server_tool_use,           tool_start{id, name, args: input, batch:
//	  mcp_tool_use)                                  message.id}; lines of one message form one batch
//	assistant *_tool_result block (server tools)   tool_done{id: tool_use_id, ok: !is_error}
//	user tool_result                               tool_done{id: tool_use_id, ok: !is_error,
//	                                                 output: the text (text parts joined by "\n",
//	                                                 other parts as "[type]"), error: the text when
//	                                                 is_error, duration_ms: toolUseResult.durationMs}
//	tool_result, is_error, saying the user         permission{id, state: denied}, the text in
//	  rejected it ("The user doesn't want to         Extra "result" (no tool_done)
//	  proceed with this tool use…", "…take this
//	  action right now…"), or that permission was
//	  not granted ("Claude requested permissions
//	  to … but you haven't granted it yet",
//	  "Permission to use … has been denied")
//	tool_result with toolUseResult.interrupted,    tool_progress{id, output: partial text}, then
//	  or whose text is an interrupt marker           one cancel (reason "tool interrupted", or the
//	                                                 marker that follows, merged), then turn_end
//	user text "[Request interrupted by user]" or   cancel{reason: the marker}, turn_end (not a
//	  "[Request interrupted by user for tool use]"   user message)
//	assistant with isApiErrorMessage               error{message: its text}
//	system with subtype api_error or level error   error{message: content}
//	end of file                                    turn_end only if the turn's last record is an
//	                                                 assistant message without tool_use (stop_reason
//	                                                 not tool_use) and no call awaits its result;
//	                                                 otherwise the turn stays open and its tools live
//
// Sub-agents: a sidechain chain runs under the Task call whose result's
// toolUseResult.agentId equals the chain's agentId; failing that, the one
// Task/Agent call whose input.prompt equals the chain's first user
// message. Its tool_use blocks become tool_start with parent = that call,
// its results tool_done as above, its text tool_progress{id: the Task,
// output: text} (the Task's streamed output); its prompt, thinking and
// interrupt markers are counted as ignored. When no Task can be found the
// chain's root line is reported as a problem and its tools are shown at
// top level (never guessed). A file holding only sidechain records (a
// sub-agent file on its own) is mapped as a conversation. Sub-agent
// messages nested in progress records (data.type agent_progress,
// data.message) run under parentToolUseID the same way; a nested message
// repeated with the same uuid is mapped once.
//
// Extra fields: "uuid" (the source record) on every mapped event;
// "result" on permission; "interrupted_ids" and "marker_uuid" on a
// cancel; "input" on tool_start when the input is not an object (args is
// then {}).
//
// # Header meta
//
// session_id, claude_code_version, cwd, git_branch and model (the first
// assistant model that is not "<synthetic>"); "ignored": {what: count};
// "duplicate_uuids", "orphan_records" (parent not in the file) and
// "sidechains" when non-zero.
//
// # Ignored records
//
// These carry nothing for the timeline and are counted in meta "ignored":
// summary (a session title), file-history-snapshot (/rewind checkpoints),
// queue-operation (prompts queued while the agent works; they arrive as
// user records), custom-title, last-prompt, and the records Claude Code
// 2.1.328 added (mode, attachment, atis-latch, tools-used, api-request,
// api-request-shape, api-request-blob); user records with isMeta
// (context the UI does not show, such as the expanded /init prompt or the
// local-command caveat), counted as "user (isMeta)"; system records other
// than errors ("system:<subtype>", e.g. compact_boundary,
// informational); progress records other than sub-agent messages
// ("progress:<data.type>", e.g. hook_progress, bash_progress); and the
// sub-agent prompts, thinking and markers named above.
//
// Anything else is a problem (Builder.Problem, with the line number) and
// the import goes on: a line that is not JSON (a torn last line is named
// as such), a record of unknown type or without one, a content block of
// unknown type, a timestamp that does not parse, a sub-agent chain
// without a Task, a parentUuid cycle. Records of unknown type that have a
// uuid stay in the chain so the records under them keep their place.
//
// # Known limits
//
//   - The prompt text is kept as written: slash commands appear with
//     their <command-name> tags, local command output with
//     <local-command-stdout>.
//   - Tool durations are the source's durationMs when the tool reports one
//     (Glob, Grep, WebFetch), else the time between the tool_use line and
//     the result line. Parallel calls are written as the model streams
//     them, so a call's start time is when its tool_use line was written.
//   - A new prompt while a call still awaits its result ends the turn (the
//     engine marks the call interrupted, unfinished_at_turn_end): the
//     transcript says the user moved on.
//   - Whether the last turn ended is inferred from the last record; a file
//     cut right after a final-looking text block is taken as ended.
//   - Nested agent_progress records and agentId links follow the shapes of
//     Claude Code 2.x transcripts as published; the development samples
//     contain no sub-agent traffic.
//
// # Performance
//
// Lines are read with a small one-pass JSON scanner (scan*.go) that
// validates each line once and decodes only the members the mapping uses,
// skipping file contents, images and toolUseResult copies without building
// values. encoding/json decoding the same records reaches about 45 MB/s
// on the largest sample; BenchmarkImport measures this package.
package claudetranscript
