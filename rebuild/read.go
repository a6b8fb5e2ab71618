package rebuild

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/lines"
	"github.com/toolsim/toolsim/store"
)

// maxLine is the longest log line accepted.
const maxLine = 64 << 20

// builder is the state of one rebuild.
type builder struct {
	opts       Options
	res        Result
	order      orderer
	clock      clock
	sawFirst   bool
	file       int           // records read, in file order
	warnedFold bool          // CodeFolded was reported
	scratch    store.Record  // the record being read
	copied     *store.Record // its copy, once a node of it was retained
	scratchN   [2]node       // the nodes of the record being read
	nodeBuf    [2]*node
	dec        decoder
	evbuf      []event.Event // scratch for the events of one node
}

func newBuilder(opts Options) *builder {
	b := &builder{opts: opts}
	b.res.Engine = engine.New(opts.Engine)
	b.order = orderer{b: b, next: 1, waiting: map[int64]*node{}}
	return b
}

func (b *builder) problem(line int, code, format string, args ...any) {
	b.res.Problems = append(b.res.Problems, Problem{Line: line, Code: code, Detail: fmt.Sprintf(format, args...)})
}

// bufferSize is the read buffer for r: 256 KiB, or less for an in-memory
// log of known length (checks rebuild small logs thousands of times).
func bufferSize(r io.Reader) int {
	const size = 256 << 10
	if l, ok := r.(interface{ Len() int }); ok {
		return min(size, max(l.Len()+1, 4096))
	}
	return size
}

// lineReader reads r's lines: a *bytes.Buffer in place (it is drained, as
// reading it would), anything else through a buffer.
func lineReader(r io.Reader) *lines.Reader {
	if buf, ok := r.(*bytes.Buffer); ok {
		return lines.NewBytesReader(buf.Next(buf.Len()), maxLine)
	}
	return lines.NewReader(r, bufferSize(r), maxLine)
}

// read parses the log line by line, numbering its lines from first, and
// returns the number of the line after the last.
func (b *builder) read(r io.Reader, first int) (int, error) {
	lr := lineReader(r)
	for n := first; ; n++ {
		line, complete, err := lr.Next()
		switch {
		case err == io.EOF:
			return n, nil
		case errors.Is(err, lines.ErrTooLong):
			// No record comes near the limit: this is not a log (an
			// endless line such as /dev/zero must not be read to its end).
			return n, fmt.Errorf("%s line %d: longer than %d bytes: not a persisted log, stopped reading", b.opts.Name, n, maxLine)
		case err != nil:
			return n, fmt.Errorf("read %s line %d: %w", b.opts.Name, n, err)
		case len(bytes.TrimSpace(line)) > 0:
			b.line(n, line, complete)
		}
	}
}

// line handles one non-blank line: the header, or a record.
func (b *builder) line(n int, line []byte, complete bool) {
	first := !b.sawFirst
	b.sawFirst = true
	if first && bytes.Contains(line, []byte(`"log"`)) {
		b.header(n, line)
		return
	}
	if first {
		b.problem(n, CodeMissingHeader, "the log has no header line; the trace clock starts at the first record")
	}
	// Decode into scratch space: a record applied at once (the usual case)
	// is never kept; one that must wait is copied by retain.
	rec := &b.scratch
	*rec = store.Record{}
	b.copied = nil
	syntax, unknown, err := b.dec.decode(line, rec)
	for _, key := range unknown {
		b.problem(n, CodeUnknownField, "member %q is not part of a version %d record: ignored", key, store.RecordVersion)
	}
	if err != nil {
		if syntax && !complete {
			b.problem(n, CodeTornTail, "the last line is cut short (%d bytes): dropped", len(line))
			return
		}
		b.problem(n, CodeBadRecord, "not a record: %v", err)
		return
	}
	if rec.V != store.RecordVersion {
		b.problem(n, CodeVersion, "record version %d (this reader knows %d): skipped", rec.V, store.RecordVersion)
		return
	}
	b.file++
	b.order.add(b.nodes(n, rec))
}

func (b *builder) header(n int, line []byte) {
	h, ok := plainHeader(line)
	if !ok {
		h = store.Header{}
		ok = json.Unmarshal(line, &h) == nil
	}
	if !ok || h.Log != store.LogVersion {
		b.problem(n, CodeBadHeader, "header %q is not %s; the trace clock starts at the first record", bytes.TrimSpace(line), store.LogVersion)
		return
	}
	if err := b.clock.setOrigin(h.T0); err != nil {
		b.problem(n, CodeBadHeader, "t0: %v", err)
	}
}

// nodes splits a record into the nodes ordering works on: one, or two for
// a lifecycle with a result.
func (b *builder) nodes(n int, rec *store.Record) []*node {
	br := &b.dec.borrowed
	start := &b.scratchN[0]
	*start = node{rec: rec, line: n, file: b.file, id: rec.ID, seq: rec.Seq, parent: rec.Parent, ts: rec.TS,
		idRaw: br.id, parentRaw: br.parent, tsRaw: br.ts}
	out := append(b.nodeBuf[:0], start)
	if rec.Type != store.TypeToolLifecycle {
		return out
	}
	if rec.Updates > 0 && rec.Batch == "" && !b.warnedFold {
		b.warnedFold = true
		b.problem(n, CodeFolded, "tool_lifecycle %s folds %d progress updates and has no batch: where they arrived is lost, so tools without a batch may group differently than they did live", rec.CallID, rec.Updates)
	}
	if rec.EndTS == "" && rec.EndSeq == nil {
		return out
	}
	end := &b.scratchN[1]
	*end = node{rec: rec, end: true, line: n, file: b.file, id: string(br.id) + rec.ID + "#end", seq: rec.EndSeq, parent: rec.EndParent, ts: rec.EndTS}
	return append(out, end)
}

// retain returns a node that outlives the line being read: scratch nodes
// and their record are copied (one record copy shared by both nodes of a
// lifecycle).
func (b *builder) retain(n *node) *node {
	if n != &b.scratchN[0] && n != &b.scratchN[1] {
		return n
	}
	if b.copied == nil {
		cp := b.scratch
		if cp.Seq == &b.dec.seq {
			seq := b.dec.seq
			cp.Seq = &seq
		}
		b.copied = &cp
	}
	kept := *n
	kept.rec = b.copied
	if !n.end {
		kept.seq = b.copied.Seq
	}
	kept.own()
	return &kept
}

// sortProblems puts problems in line order (stable: same-line problems
// keep the order found).
func (b *builder) sortProblems() {
	slices.SortStableFunc(b.res.Problems, func(x, y Problem) int { return x.Line - y.Line })
}
