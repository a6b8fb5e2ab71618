package claudetranscript

import (
	"bytes"
	"strings"
	"time"
)

// record is one transcript line, reduced to what the mapping uses.
type record struct {
	line      int    // 1-based line in the file
	typ       string // user, assistant, system, progress, or an ignored or unknown type
	uuid      string
	parent    string // parentUuid ("" for null)
	logical   string // logicalParentUuid (compact boundaries)
	sidechain bool   // isSidechain
	isMeta    bool   // isMeta: context the UI does not show
	// isCompactSummary: the synthetic user message that carries a
	// /compact summary, after a compact_boundary
	compactSummary bool
	apiError       bool // isApiErrorMessage
	ts             time.Time
	hasTS          bool
	badTS          string // a timestamp that does not parse
	agentID        string // agentId (sub-agent lines and Task results)

	// message
	msgID  string
	model  string
	stop   string // stop_reason
	blocks []block

	// toolUseResult
	interrupted bool
	durationMS  int64
	hasDuration bool
	resultAgent string // toolUseResult.agentId: the sub-agent a Task result came from

	// system
	subtype, level, content string

	// progress
	parentTool string  // parentToolUseID: the Task call a nested message runs under
	dataType   string  // data.type
	nested     *record // data.message: a sub-agent message
}

// block is one content block of a message.
type block struct {
	typ       string // text, thinking, redacted_thinking, tool_use, tool_result, image, ...
	text      string // text, thinking, or a tool_result's joined content
	id, name  string // tool_use
	input     []byte // tool_use input, raw JSON (copied)
	toolUseID string // tool_result
	isError   bool   // tool_result
}

// session is what the header meta keeps from the records.
type session struct {
	id, version, cwd, branch, model string
}

// note keeps the first value of a session member.
func (s *session) note(key, val []byte) {
	var dst *string
	switch string(key) {
	case "sessionId":
		dst = &s.id
	case "version":
		dst = &s.version
	case "cwd":
		dst = &s.cwd
	case "gitBranch":
		dst = &s.branch
	default:
		return
	}
	if *dst == "" {
		*dst = str(val)
	}
}

// parseRecord decodes one line. It returns an error only for malformed
// JSON; what the record means is decided by the mapping.
func parseRecord(line []byte, n int, sess *session) (*record, error) {
	r := &record{line: n}
	var p recordParts
	err := topObject(line, func(k, v []byte) {
		if !p.keep(k, v) {
			r.member(k, v)
		}
	})
	if err != nil {
		return nil, err
	}
	for _, kv := range p.sess[:p.nsess] {
		sess.note(kv[0], kv[1])
	}
	r.setTime(p.ts)
	switch r.typ {
	case "user", "assistant":
		parseMessage(p.msg, r)
		if r.typ == "assistant" && sess.model == "" && r.model != "" && r.model != "<synthetic>" {
			sess.model = r.model
		}
		parseToolUseResult(p.tur, r)
	case "progress":
		parseProgress(p.data, r)
	}
	return r, nil
}

// recordParts are the members of a line that parseRecord reads once the
// whole line is known to be valid: the message, toolUseResult, data,
// timestamp and the session members.
type recordParts struct {
	msg, tur, data, ts []byte
	sess               [4][2][]byte
	nsess              int
}

// keep keeps a member parseRecord reads after the walk, reporting whether
// it was one.
func (p *recordParts) keep(k, v []byte) bool {
	switch string(k) {
	case "timestamp":
		p.ts = v
	case "message":
		p.msg = v
	case "toolUseResult":
		p.tur = v
	case "data":
		p.data = v
	case "sessionId", "version", "cwd", "gitBranch":
		if p.nsess < len(p.sess) {
			p.sess[p.nsess] = [2][]byte{k, v}
			p.nsess++
		}
	default:
		return false
	}
	return true
}

// member reads a top-level member of a line into the record's fields;
// members the mapping does not use are skipped.
func (r *record) member(k, v []byte) {
	switch string(k) {
	case "type":
		r.typ = str(v)
	case "uuid":
		r.uuid = str(v)
	case "parentUuid":
		r.parent = str(v)
	case "logicalParentUuid":
		r.logical = str(v)
	case "isSidechain":
		r.sidechain = isTrue(v)
	case "isMeta":
		r.isMeta = isTrue(v)
	case "isCompactSummary":
		r.compactSummary = isTrue(v)
	case "isApiErrorMessage":
		r.apiError = isTrue(v)
	case "agentId":
		r.agentID = str(v)
	case "subtype":
		r.subtype = str(v)
	case "level":
		r.level = str(v)
	case "content":
		r.content = str(v)
	case "parentToolUseID":
		r.parentTool = str(v)
	}
}

// setTime sets the record's time from its timestamp member, noting one
// that does not parse.
func (r *record) setTime(ts []byte) {
	if len(ts) == 0 || isNull(ts) {
		return
	}
	s := str(ts)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		r.ts, r.hasTS = t, true
	} else {
		r.badTS = s
	}
}

// parseMessage reads the members of message the mapping uses.
func parseMessage(v []byte, r *record) {
	members(v, func(k, v []byte) {
		switch string(k) {
		case "id":
			r.msgID = str(v)
		case "model":
			r.model = str(v)
		case "stop_reason":
			r.stop = str(v)
		case "content":
			r.blocks = parseContent(v)
		}
	})
}

// parseContent reads message.content: a string (one text block) or an
// array of blocks.
func parseContent(v []byte) []block {
	if len(v) > 0 && v[0] == '"' {
		return []block{{typ: "text", text: str(v)}}
	}
	var out []block
	elems(v, func(v []byte) {
		var b block
		members(v, func(k, v []byte) {
			switch string(k) {
			case "type":
				b.typ = str(v)
			case "text", "thinking":
				b.text = str(v)
			case "id":
				b.id = str(v)
			case "name":
				b.name = str(v)
			case "input":
				b.input = bytes.Clone(v)
			case "tool_use_id":
				b.toolUseID = str(v)
			case "content":
				b.text = resultText(v)
			case "is_error":
				b.isError = isTrue(v)
			}
		})
		out = append(out, b)
	})
	return out
}

// resultText joins a tool_result's content: a string, or text parts joined
// by newlines with a placeholder such as "[image]" for every other part.
func resultText(v []byte) string {
	if len(v) > 0 && v[0] == '"' {
		return str(v)
	}
	var parts []string
	elems(v, func(v []byte) {
		var typ, text string
		members(v, func(k, v []byte) {
			switch string(k) {
			case "type":
				typ = str(v)
			case "text":
				text = str(v)
			}
		})
		if typ == "text" {
			parts = append(parts, text)
		} else {
			parts = append(parts, placeholder(typ))
		}
	})
	return strings.Join(parts, "\n")
}

// placeholder stands for a content part that is not text.
func placeholder(typ string) string {
	if typ == "" {
		typ = "untyped content"
	}
	return "[" + typ + "]"
}

// parseToolUseResult reads the few fields of toolUseResult the timeline
// needs; the rest (often the whole result again: file contents, patches)
// is skipped without decoding.
func parseToolUseResult(v []byte, r *record) {
	members(v, func(k, v []byte) {
		switch string(k) {
		case "interrupted":
			r.interrupted = isTrue(v)
		case "durationMs", "totalDurationMs": // the call's own run time (a Task reports the total)
			if d, ok := integer(v); ok && d >= 0 {
				r.durationMS, r.hasDuration = d, true
			}
		case "agentId":
			r.resultAgent = str(v)
		}
	})
}

// parseProgress reads a progress record: data.type, and for sub-agent
// progress (agent_progress) the nested message in data.message.
func parseProgress(v []byte, r *record) {
	members(v, func(k, v []byte) {
		switch string(k) {
		case "type":
			r.dataType = str(v)
		case "message":
			if len(v) == 0 || v[0] != '{' {
				return
			}
			n := &record{line: r.line}
			var msg, tur, ts []byte
			members(v, func(k, v []byte) {
				switch string(k) {
				case "type":
					n.typ = str(v)
				case "uuid":
					n.uuid = str(v)
				case "timestamp":
					ts = v
				case "message":
					msg = v
				case "toolUseResult":
					tur = v
				case "isApiErrorMessage":
					n.apiError = isTrue(v)
				}
			})
			n.setTime(ts)
			parseMessage(msg, n)
			parseToolUseResult(tur, n)
			r.nested = n
		}
	})
}
