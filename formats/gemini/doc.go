// Package gemini imports Gemini CLI chat recordings
// (~/.gemini/tmp/<project>/chats/session-*.json, and the JSON Lines
// session-*.jsonl of newer releases) as canonical toolsim traces.
//
// A recording is one JSON document: {"sessionId", "projectHash",
// "startTime", "lastUpdated", "messages": [...]}. Each message has an id, a
// timestamp, a type (user, gemini, info, error, warning) and content (a
// string or a list of parts); gemini messages carry thoughts[] and
// toolCalls[], each call stored together with its result: {id, name, args,
// result: [{functionResponse: {id, name, response: {output | error}}}],
// status, timestamp, resultDisplay, displayName, …}. Detection reads the
// head with a streaming decoder: one JSON object with a string "sessionId"
// followed by a "messages" array.
//
// # Mapping
//
//	recording                          canonical events
//	message type=user                  [turn_end] turn_start{user} user turn_end
//	message type=gemini, thoughts[i]   thinking ("**subject**\ndescription"; deltas after the
//	                                   first start with a blank line)
//	message type=gemini, content       text (model in Extra)
//	toolCalls[] (all of one message)   tool_start{id, name, args, batch: the message id} each,
//	                                   then for each call in order:
//	  status success                   tool_done{ok: true, output}
//	  status error                     tool_done{ok: false, error}
//	  status cancelled                 nothing; after the message's results, one
//	                                   cancel{reason} (see below)
//	  status awaiting_approval         permission{asked}
//	  status validating/scheduled/     nothing: recorded before it finished, the call
//	    executing                      stays running
//	message type=error                 error{message: content}
//
// The output is the text of functionResponse.response.output (joined over
// the result parts), else resultDisplay when it is text; the error is
// response.error, else resultDisplay. A result part that is neither a
// functionResponse nor text (inline data) keeps the whole result in Extra
// "result"; a resultDisplay that is not text (a file diff) is kept in Extra
// "result_display". A call with no id (or an empty one) gets
// "gemini-call-N" and Extra "generated_id": true. The call's status and
// displayName (when it differs from the name) are kept in Extra.
//
// Cancelled calls: Gemini CLI stores a cancelled call with status
// "cancelled" and an error result ("[Operation Cancelled] …"). That is an
// interruption, not a failure, so the call gets no tool_done: after the
// message's other results, one cancel event is emitted (reason: the first
// cancelled call's error text, else "cancelled"; at the time the last
// cancelled call was resolved). The engine turns every call still live
// into ⚠ interrupted; the stored results of the cancelled calls ride on
// the cancel as Extra "cancelled_calls" [{id, result}], so nothing is lost
// and no late_done is produced. Non-zero exit codes inside a shell call's
// output do not make it fail: Gemini CLI itself reports such a call as
// success.
//
// # Turns
//
// The recording has no end-of-turn marker. The assistant turn opens at the
// first gemini (or error) message after a prompt and ends when the next
// user message starts; a cancelled turn ends at the cancel's turn_end (at
// the next prompt or the end of the document). The last turn of a
// recording that was not cancelled stays open: nothing says it finished.
//
// # Clock
//
// t is milliseconds since the first timestamp seen. Thoughts use their own
// timestamps, text and tool_start the message's, tool_done the call's
// timestamp (so a call's duration is call time − message time); times that
// go backwards are clamped (Extra "src_t"). Missing timestamps use the
// synthetic clock (+1 ms); unparsable ones too, and are reported.
//
// # Ignored records
//
// Counted in the header's meta "ignored": info and warning messages (CLI
// notices), gemini messages with no text, thoughts or calls, and user
// messages made only of functionResponse parts (Gemini CLI 0.61.0 records
// the results it sends the model that way: "user (function responses)";
// the calls' results come from the gemini message's toolCalls). The
// document's sessionId, projectHash, startTime, lastUpdated, summary, kind
// and directories go to the header meta (other top-level members as
// "extra_<name>"); a message's token counts are not kept.
//
// # Problems
//
// Malformed JSON is reported at its line (computed from the byte offset).
// A document torn in the middle (a crash while writing) keeps the
// messages before the tear and reports "truncated JSON document". A
// message that is not an object (skipped), a message member of an
// unexpected JSON type (left out, the rest mapped), an unknown message
// type, an unknown call status (the call is left running), a call without
// a name (named "unknown") or an unparsable timestamp is reported at the
// message's first line; the import goes on.
//
// # JSON Lines sessions (session-*.jsonl)
//
// Newer Gemini CLI releases append records instead of rewriting one
// document: a first line of session metadata (sessionId, projectHash,
// startTime, lastUpdated, kind, directories), then one record per line —
// a message record (the same shape as an element of messages[], with a
// string "id"), written whole again every time the message changes (its
// tool calls' status and results, its token counts); {"$set": {…}}, a
// metadata patch; {"$rewindTo": id}, which takes back that message and
// every later one. Detection: the first non-blank line is a complete JSON
// object with string sessionId and projectHash and no "messages" member.
//
// The records are folded as Gemini CLI folds them on load: a message
// record replaces the earlier record of its id in place (so a call shows
// once, with its last status) or is appended; $rewindTo removes its
// message and the ones after it (an unknown id removes all); $set members
// go to the header meta. The messages left are then mapped exactly as
// above, each at the line of its last version. Counted in meta "ignored":
// "message rewritten" (each earlier version replaced), "message rewound",
// and "$set messages" (Gemini CLI's rewrite of the model's history at
// compression: the timeline keeps what was shown, so it is not applied).
// The header meta has "format": "gemini-cli-jsonl". A line that is not
// JSON (a torn last line) or not one of these records is reported and
// skipped.
//
// # Limits
//
// Sub-agent sessions are separate files (chats/<parent id>/<id>.jsonl) and
// are not linked. The whole file is read into memory.
package gemini
