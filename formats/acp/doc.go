// Package acp imports Agent Client Protocol (ACP) JSON-RPC traffic as a
// canonical toolsim trace. Params and results are decoded with the types
// of github.com/coder/acp-go-sdk.
//
// # Input
//
// One message per line, either raw JSON-RPC (`{"jsonrpc":"2.0",...}`) or a
// transport log line with a prefix before the message, as the JetBrains
// IDEs write it:
//
//	2025-11-14 19:57:12,975 [     34]   FINE - AcpTransport - OUT: {json}
//
// The message starts after an "IN:" or "OUT:" marker that comes before the
// line's first '{' (or, without a marker, at the first '{' of a line that
// has a "jsonrpc" member). Which side a marker stands for is learnt from
// the first request whose method names its sender (a client logs its own
// messages as OUT; an agent would log them as IN), and is used to pair
// responses with requests: the two sides number their requests
// independently, so a request is known by its sender and id.
//
// A line with a marker but no parsable message after it (a broken or cut
// JSON object, or nothing, on an AcpTransport line) is a Problem. Lines
// without a message — other loggers, stack traces, blank lines — are not
// ACP: they are counted in the header's meta.ignored["other log lines"].
//
// # Clock
//
// A timestamp at the start of a line (`2006-01-02 15:04:05,000`, with '.'
// or ',' before the fraction, 'T' or ' ' after the date, and an optional
// Z or ±hh:mm zone; UTC otherwise) gives the event time: milliseconds since
// the first timestamped line (importer.Builder.Clock). Lines without one
// (raw JSON-RPC) use the synthetic clock: 1 ms after the previous event.
// All events mapped from one line share its time (user_message_chunk text
// takes the time of its first chunk). A timestamp earlier than the previous
// event's is clamped, the original kept as "src_t" (importer.Builder).
//
// # Mapping
//
//	source                                        canonical events
//	session/prompt request                        turn_start{user}, user{text blocks joined by "\n"}, turn_end,
//	                                              turn_start{assistant}; non-text blocks (resource links,
//	                                              images) are kept whole in the user event's "attachments"
//	session/prompt response, result.stopReason    turn_end{stop_reason}; "cancelled" adds cancel{reason
//	                                              "stopReason: cancelled"} first unless session/cancel was seen
//	session/prompt error response                 error{message (code N)}, turn_end{error}
//	session/cancel                                cancel{reason "session/cancel"}
//	update agent_message_chunk                    text (non-text blocks as placeholders: "[image image/png]",
//	                                              "[name](uri)", "[resource uri]"); empty chunks are counted
//	update agent_thought_chunk                    thinking
//	update user_message_chunk                     consecutive chunks form one user message: inside a prompt's
//	                                              turn a user event, else a user turn of its own
//	update tool_call                              tool_start{id toolCallId, name title (else kind, else "tool"),
//	                                              args, batch}; "tool_kind" keeps the kind; a status, content
//	                                              or rawOutput it carries is then applied as a patch
//	update tool_call, id already announced        a patch (below), details.reannounced = true: the same id
//	   in the same turn                           announced twice is one call (SPEC §7), never a second row
//	update tool_call_update (a patch)             status completed → tool_done{ok}; failed → tool_done{ok false,
//	                                              error = content text}; pending, in_progress or none →
//	                                              tool_progress{output delta, details}
//	session/request_permission request            permission{asked} for toolCall.toolCallId; a call the turn
//	                                              has not announced is started from the request's toolCall
//	                                              first ("announced_by":"session/request_permission")
//	its response                                  allow_once/allow_always → permission{granted};
//	                                              reject_once/reject_always or outcome cancelled →
//	                                              permission{denied}; "option" / "outcome" keep the answer
//	initialize, session/new, session/load         header meta: protocolVersion, client, agent, sessionId
//	                                              (sessions when several), cwd; counted in meta.ignored
//
// Tool arguments are rawInput when it is a non-empty object (another JSON
// value is wrapped as {"rawInput": v}); otherwise an object of title, kind,
// locations and the first location's path, so that the summary shows it.
//
// Patches: every member of tool_call_update is optional. The output text
// is the content collection's text (text blocks; "[diff PATH]",
// "[terminal ID]" and the placeholders above for the rest, with the raw
// collection kept in details/"acp".content), else rawOutput's (a string;
// an object's "content", "output" or "stdout" string; else its JSON). ACP
// replaces the content collection on each update while the canonical
// progress output is a delta, so a progress event carries what the new text
// adds to the text shown so far; a text that does not extend it is sent
// whole (the engine then shows both). A result's output replaces the
// streamed one. Members the event has no field for (title, kind,
// locations, rawInput, status, a rawOutput that is not the output) go to
// the progress details or to the result's "acp" member. A patch for an id
// never announced is passed on as is: the engine reports it (unknown_id,
// done_before_start), as it does a result after a cancel (late_done).
//
// Turns: agent output with no prompt turn open (a session/load replay, a
// log that starts mid-turn) opens an assistant turn marked "implicit"; the
// next prompt, a user message or the session/load response closes it. A
// prompt that arrives while the previous prompt has no response closes that
// turn with turn_end{"unanswered":true}. A file that ends mid-turn leaves
// the turn open, as the log does.
//
// Batches: tool calls announced while another call of the same run is
// still pending, with no message or thought chunk in between, share the
// batch "prompt-N.K" (N-th assistant turn, K-th run in it), so progress in
// between does not split them; a call announced once all earlier ones are
// done, or after text, starts run K+1. Every tool_start carries its batch,
// a single call included (it renders as a plain tool).
//
// # Ignored, counted in meta.ignored
//
// Requests and notifications other than the above (fs/*, terminal/*,
// session/set_mode, authenticate, $/cancel_request, extension methods
// "_…", ...) by method name; their responses as "METHOD result" or
// "METHOD error" (a permission request answered by an error leaves the
// call pending); session/update kinds plan, available_commands_update,
// current_mode_update, config_option_update, session_info_update and
// usage_update as "session/update KIND"; other log lines. "_meta" members
// are not mapped.
//
// # Problems (with the line number)
//
// Broken JSON after a marker or on a raw line, a transport line without a
// message, a JSON object that is not JSON-RPC, an error response without
// a request id, an unknown method (not an ACP method of either side, not
// $/cancel_request, not an "_" extension), an
// unknown or missing sessionUpdate kind (checked on the decoded variant's
// own discriminator: the SDK's fallback would read an unknown kind with
// "content" as a user_message_chunk), params the SDK types reject, a
// response whose request the log does not show, a prompt response for a
// turn already over, an unknown tool status (mapped as progress), a
// permission answer naming an option the request did not offer, and lines
// over importer.MaxLine.
//
// # Limits
//
// Several sessions interleaved in one log are merged into one timeline.
// A message split over several lines (pretty-printed JSON) is not
// reassembled. Terminal output (terminal/output) is not joined to its tool
// call. A permission request's toolCall only names (or, unannounced,
// starts) its call: its other members (content preview, a changed title)
// are not mapped. The canonical format cannot rename a tool or change its args
// after tool_start, so a row keeps the first announce's title and args;
// later ones are in the details. Tool names are titles, so rows can be
// long: the renderer cuts them to the width. JSON-RPC batches (a line
// holding an array; ACP does not use them) are reported as malformed.
package acp
