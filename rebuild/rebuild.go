package rebuild

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// Options configure a rebuild.
type Options struct {
	Name   string         // the log's name, for messages
	Engine engine.Options // options of the engine fed
	// Open leaves the stream open at the end: tools still live stay live, as
	// when a UI reconnects mid-stream and goes on with live events. By
	// default the end-of-stream rule applies (engine.Finish).
	Open bool
	// KeepEvents keeps the rebuilt event list in Result.Events.
	KeepEvents bool
}

// Problem is something in the log that could not be used as written.
type Problem struct {
	Line   int    // 1-based line of the log; 0 when about the whole log
	Code   string // see the Code constants
	Detail string
}

// Recovered reports whether the rebuild fully made up for the problem (a
// retried record dropped), so the timeline lost nothing to it.
func (p Problem) Recovered() bool { return p.Code == CodeDuplicate }

// Lost reports whether any problem cost the rebuilt timeline something.
func Lost(problems []Problem) bool {
	for _, p := range problems {
		if !p.Recovered() {
			return true
		}
	}
	return false
}

func (p Problem) String() string {
	if p.Line == 0 {
		return fmt.Sprintf("%s: %s", p.Code, p.Detail)
	}
	return fmt.Sprintf("line %d: %s: %s", p.Line, p.Code, p.Detail)
}

// Problem codes.
const (
	CodeEmpty         = "empty_log"           // no header and no record at all
	CodeMissingHeader = "missing_header"      // no header line: t0 taken from the first record
	CodeBadHeader     = "bad_header"          // a header of another version or unreadable
	CodeBadRecord     = "bad_record"          // a line that is not a record
	CodeTornTail      = "torn_tail"           // the last line was cut short (crash mid-write)
	CodeVersion       = "unsupported_version" // a record version this reader does not know
	CodeUnknownType   = "unknown_record"      // a record type this reader does not know
	CodeUnknownField  = "unknown_field"       // a record member this reader does not know
	CodeDuplicate     = "duplicate_record"    // a retried write, dropped
	CodeConflict      = "conflicting_record"  // two different records claim one position
	CodeSeqGap        = "seq_gap"             // sequence numbers missing: records lost
	CodeMissingSeq    = "missing_seq"         // a record without seq in a numbered log
	CodeBrokenChain   = "broken_chain"        // a parent link to no record
	CodeAmbiguous     = "ambiguous_order"     // records tie on time with nothing else to order them
	CodeBadTime       = "bad_time"            // a timestamp that is unreadable or going back
	CodeFolded        = "folded_progress"     // lifecycle records lost where progress arrived
)

// Result is a rebuilt transcript.
type Result struct {
	Engine   *engine.Engine // the engine fed; go on applying live events to reconnect
	Problems []Problem      // in line order where they have one
	Order    string         // how records were ordered: "seq", "parent" or "time"
	Records  int            // records used
	Events   []event.Event  // with Options.KeepEvents

	eventCount int64
}

// Timeline is the rebuilt timeline.
func (r *Result) Timeline() *timeline.Timeline { return r.Engine.Timeline() }

// Rebuild reads a log and rebuilds its timeline. It returns an error only
// when reading fails; every problem in the content is in Result.Problems.
// A *bytes.Buffer is read in place, without a copy into a read buffer.
func Rebuild(r io.Reader, opts Options) (*Result, error) {
	b := newBuilder(opts)
	if _, err := b.read(r, 1); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// Replayed rebuilds log (once), then goes on reading its complete records
// a second time after it (twice): the log a writer leaves when it replays
// every record it wrote, each now a duplicate. The replayed records' lines
// are numbered on from the log's. It costs one rebuild of the replayed
// log: once is a fork of it, taken between the two copies.
func Replayed(log []byte, opts Options) (once, twice *Result, err error) {
	b := newBuilder(opts)
	next, err := b.read(bytes.NewBuffer(log), 1)
	if err != nil {
		return nil, nil, err
	}
	once = b.fork().finish()
	whole := log[:bytes.LastIndexByte(log, '\n')+1] // a torn last line is not replayed
	records := whole[bytes.IndexByte(whole, '\n')+1:]
	if _, err := b.read(bytes.NewBuffer(records), next); err != nil {
		return nil, nil, err
	}
	return once, b.finish(), nil
}

// finish ends a rebuild: what is still held is placed, the end-of-stream
// rule applies unless Options.Open, and problems are put in line order.
func (b *builder) finish() *Result {
	if !b.sawFirst {
		b.problem(0, CodeEmpty, "the log is empty: no header and no records")
	}
	b.flush()
	if !b.opts.Open {
		b.res.Engine.Finish()
	}
	b.sortProblems()
	return &b.res
}

// fork returns an independent copy of the builder between two lines:
// finishing it gives what a rebuild of the lines read so far gives, and
// the builder goes on as if it had not been forked. Nodes waiting to be
// placed are shared: nothing changes a node once it is kept.
func (b *builder) fork() *builder {
	c := &builder{opts: b.opts, res: b.res, order: b.order, clock: b.clock, sawFirst: b.sawFirst, file: b.file, warnedFold: b.warnedFold}
	c.res.Engine = b.res.Engine.Clone()
	c.res.Problems = slices.Clone(b.res.Problems)
	c.res.Events = slices.Clone(b.res.Events)
	c.order.b = c
	c.order.heap = slices.Clone(b.order.heap)
	c.order.waiting = maps.Clone(b.order.waiting)
	c.order.held = slices.Clone(b.order.held)
	return c
}
