// Package event is toolsim's canonical trace format, version 1: the event
// model every other package depends on, a streaming JSONL [Reader] and
// [Writer], the optional header line, and validation.
//
// A trace is one JSON object per line. An optional first line is a [Header]
// (`{"trace":"toolsim/v1",...}`); every other line is an [Event] with a
// strictly increasing `seq`, a non-decreasing `t` (milliseconds on the trace
// clock) and a `kind`. The format is documented in docs/trace-format.md.
//
// Invariants:
//   - Decoding never panics. Every error is a *[DecodeError] naming the line
//     and, where it applies, the field.
//   - Unknown kinds and unknown fields are kept (in [Event.Extra]) and written
//     back, so encode(decode(x)) is a fixed point: re-encoding it again gives
//     the same bytes.
//   - A known field that the event's kind does not define is kept as an
//     unknown field, never dropped.
//
// The package uses only the standard library. JSON syntax checks and the
// slow paths (escaped strings, compaction) go through the small [JSON]
// interface so that a faster implementation can replace encoding/json.
//
// Runnable examples: decode and encode a whole trace (the package example),
// stream one with a Reader, and Writer's checks.
package event
