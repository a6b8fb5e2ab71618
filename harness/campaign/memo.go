package campaign

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
)

// memo remembers what each trace showed when checked, so that a trace
// checked again costs no engine run: two shrink passes can build the same
// candidate, the shrinker tries first the whole trace its caller checked,
// the caller checks again the trace it kept, and the findings of one seed
// start from one trace, so their first candidates are the same cuts of it
// (shrinkAll gives them one memo, one after another). A full check (first
// false) also answers one that stops at the first violation: that check
// finds the full check's first (TestFirstCheckIsFullChecksFirst). The
// engine must be deterministic for a memo to stand in for a run; a racing
// one shrinks as well as it can either way (Campaign.Racy confirms each
// repro on a fresh engine). Not safe for concurrent use.
type memo struct {
	seen map[string]probed
	buf  []byte
}

// probed is what one check of a trace found, and whether it was a full
// check (not stopped at the first violation).
type probed struct {
	vs   []harness.Violation
	full bool
}

func newMemo() *memo { return &memo{seen: map[string]probed{}} }

// key is the memo key of evs checked with the settings a shrink varies:
// only the oracles of the stream, and without toolsim's rebuild oracles.
func (m *memo) key(evs []event.Event, streamOnly, noRebuild bool) string {
	m.buf = append(m.buf[:0], bit(streamOnly), bit(noRebuild))
	for i := range evs {
		m.buf = event.AppendEvent(m.buf, &evs[i])
		m.buf = append(m.buf, '\n')
	}
	return string(m.buf)
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// get returns what a check of key found, when one was kept that answers
// a check stopped at the first violation (first) or a full one.
func (m *memo) get(key string, first bool) ([]harness.Violation, bool) {
	p, ok := m.seen[key]
	switch {
	case !ok || !p.full && !first:
		return nil, false
	case first && len(p.vs) > 1:
		return p.vs[:1], true
	}
	return p.vs, true
}

// put keeps what a check of key found; a full check is never replaced
// by one stopped at the first violation.
func (m *memo) put(key string, vs []harness.Violation, first bool) {
	if p, ok := m.seen[key]; ok && p.full {
		return
	}
	m.seen[key] = probed{vs: vs, full: !first}
}
