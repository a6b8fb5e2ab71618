package claudetranscript

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the claude-transcript format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "claude-transcript" }

// detectLines is how many lines of the head Detect looks at.
const detectLines = 64

// Detect implements importer.Importer. It accepts a head where some line
// is an object with the transcript's own members — "parentUuid" with
// "sessionId" or "isSidechain" — and no line has the snake_case members of
// the stream-json format ("session_id", "parent_tool_use_id") without them
// (Claude Code 2.1.328 writes session_id beside sessionId). Lines that
// are not objects, or that are cut off at the end of the head, are judged
// on the members read before they end.
func (Importer) Detect(head []byte) bool {
	found := false
	for n := 0; len(head) > 0 && n < detectLines; n++ {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var parent, sess, side, snake bool
		_ = topObject(line, func(k, _ []byte) { // a cut-off line still shows its first members
			switch string(k) {
			case "parentUuid":
				parent = true
			case "sessionId":
				sess = true
			case "isSidechain":
				side = true
			case "session_id", "parent_tool_use_id":
				snake = true
			}
		})
		own := parent && (sess || side)
		if snake && !own { // Claude Code 2.1.328 writes session_id beside sessionId
			return false
		}
		found = found || own
	}
	return found
}

// ignoredTypes are record types that carry nothing for the timeline.
var ignoredTypes = map[string]bool{
	"summary":               true, // a session title pointing at a leaf uuid
	"file-history-snapshot": true, // checkpoint data for /rewind
	"queue-operation":       true, // prompts queued while the agent works (they arrive as user records)
	"custom-title":          true, // a title set with /rename
	"last-prompt":           true, // the prompt box contents on exit
	// Claude Code 2.1.328 also writes these; none holds a call or a result.
	"mode":              true, // the permission mode (normal, plan, …) in force
	"attachment":        true, // context attached to a turn for the model (hook output, tool lists)
	"atis-latch":        true, // an internal latch, with the session id
	"tools-used":        true, // the names of the tools a turn used
	"api-request":       true, // a model request, recorded by shape hash and digest
	"api-request-shape": true, // the shape of recorded requests
	"api-request-blob":  true, // a recorded request's message, by hash
}

// parser is the first pass: every line becomes a record (or a problem).
type parser struct {
	b       *importer.Builder
	recs    []*record
	sess    session
	ignored map[string]int
	bad     *badLine // the last malformed line, reported once the next line shows it was not the last
}

type badLine struct {
	n   int
	err error
}

// Import implements importer.Importer.
func (im Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	b := importer.NewBuilder(im.Name(), opts)
	p := &parser{b: b, ignored: map[string]int{}}
	if err := importer.EachLine(r, p.line, p.tooLong); err != nil {
		return nil, err
	}
	if err := p.reportBad(true); err != nil {
		return nil, err
	}
	items, st, err := plan(p.recs, b.Problem)
	if err != nil {
		return nil, err
	}
	c := newConv(b, p.ignored)
	for _, it := range items {
		if err := c.item(it); err != nil {
			return nil, err
		}
	}
	c.finish()
	b.SetMeta(p.meta(st))
	b.NoteClock()
	res := b.Result()
	slices.SortStableFunc(res.Problems, func(x, y importer.Problem) int { return cmp.Compare(x.Line, y.Line) })
	return res, nil
}

func (p *parser) line(n int, line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	if err := p.reportBad(false); err != nil {
		return err
	}
	rec, err := parseRecord(line, n, &p.sess)
	if err != nil {
		p.bad = &badLine{n: n, err: err}
		return nil
	}
	switch {
	case rec.typ == "user" || rec.typ == "assistant" || rec.typ == "system" || rec.typ == "progress":
	case ignoredTypes[rec.typ]:
		p.ignored[rec.typ]++
	case rec.typ == "":
		err = p.b.Problem(n, `record without a "type": skipped`)
	default:
		err = p.b.Problem(n, fmt.Sprintf("unknown record type %q: skipped", rec.typ))
	}
	if err != nil {
		return err
	}
	// Every record with a uuid stays in the chain, mapped or not, so the
	// records under it keep their place.
	if rec.uuid != "" || rec.typ == "user" || rec.typ == "assistant" || rec.typ == "system" || rec.typ == "progress" {
		p.recs = append(p.recs, rec)
	}
	return nil
}

// reportBad reports the pending malformed line; last says it was the last
// line of the file, where a cut-off record is a torn write.
func (p *parser) reportBad(last bool) error {
	if p.bad == nil {
		return nil
	}
	bad := p.bad
	p.bad = nil
	var se *syntaxError
	if last && errors.As(bad.err, &se) && se.eof {
		return p.b.Problem(bad.n, fmt.Sprintf("torn last line: the record is cut off (%v): skipped", bad.err))
	}
	return p.b.Problem(bad.n, fmt.Sprintf("malformed JSON: %v: skipped", bad.err))
}

func (p *parser) tooLong(n int) error {
	if err := p.reportBad(false); err != nil {
		return err
	}
	return p.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
}

func (p *parser) meta(st orderStats) map[string]any {
	m := map[string]any{}
	add := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	add("session_id", p.sess.id)
	add("claude_code_version", p.sess.version)
	add("cwd", p.sess.cwd)
	add("git_branch", p.sess.branch)
	add("model", p.sess.model)
	if len(p.ignored) > 0 {
		m["ignored"] = p.ignored
	}
	if st.duplicates > 0 {
		m["duplicate_uuids"] = st.duplicates
	}
	if st.orphans > 0 {
		m["orphan_records"] = st.orphans
	}
	if st.sidechains > 0 {
		m["sidechains"] = st.sidechains
	}
	return m
}
