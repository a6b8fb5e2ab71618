package engine

import (
	"strings"

	"github.com/toolsim/toolsim/timeline"
)

// Streamed output grows by a delta per tool_progress. Concatenating
// strings would copy the whole output on each delta, quadratic in a long
// stream of small deltas; instead, once it is long (builderFrom), a live
// tool's output is the string of a strings.Builder that the engine
// appends to, amortised linear.
//
// A Builder's String shares its bytes, and appending never rewrites bytes
// already written: an output read earlier (by a renderer, a snapshot, a
// clone) never changes. Only one writer may append to a builder, though,
// or two could write their deltas over the same spare bytes: builders are
// this engine's alone, keyed by the tool they grow. A clone starts with
// none and the original drops its own (Clone), and each then copies a
// shared tool before changing it (writableTool), so each makes a builder
// of its own for its own copy. finishTool drops a tool's builder: its
// output never grows again, so it is trimmed to size when the builder's
// spare room is large.

// builderFrom is the output length from which a tool's output grows in a
// builder. A shorter one is concatenated: copying it costs less than a
// builder and its map entry, and the copying stays bounded.
const builderFrom = 1 << 10

// appendOutput adds a streamed delta to a live tool's output. t must be
// writable (writableTool).
func (e *Engine) appendOutput(t *timeline.Tool, delta string) {
	if delta == "" {
		return
	}
	if len(t.Output) < builderFrom {
		t.Output += delta // a first delta is kept as it came, without a copy
		return
	}
	b := e.outputs[t]
	if b == nil || b.Len() != len(t.Output) {
		// The output just grew long, or this is the first delta since a
		// clone: start a builder holding the output so far.
		if e.outputs == nil {
			e.outputs = make(map[*timeline.Tool]*strings.Builder)
		}
		b = new(strings.Builder)
		b.Grow(2 * (len(t.Output) + len(delta)))
		b.WriteString(t.Output)
		e.outputs[t] = b
	}
	b.WriteString(delta)
	t.Output = b.String()
}

// endOutput drops the builder of a tool that became terminal, first
// copying its output to a string of its own size when more than a quarter
// of the builder's room would otherwise stay held by it.
func (e *Engine) endOutput(t *timeline.Tool) {
	b := e.outputs[t]
	if b == nil {
		return
	}
	if n := b.Len(); len(t.Output) == n && b.Cap()-n > n/4 {
		t.Output = strings.Clone(t.Output)
	}
	delete(e.outputs, t)
}
