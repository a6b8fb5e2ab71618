package engineproto

import (
	"strconv"

	"github.com/toolsim/toolsim/timeline"
)

// timeline answers with the current timeline: a delta when allowed (event,
// batch and finish, with the delta capability declared), else whole. The
// reply is written by hand around the hand-encoded timeline.
func (s *server) timeline(id int64, index int, delta bool) {
	tl := s.eng.Timeline()
	s.buf = strconv.AppendInt(append(s.buf[:0], `{"type":"timeline","id":`...), id, 10)
	if index != 0 {
		s.buf = strconv.AppendInt(append(s.buf, `,"index":`...), int64(index), 10)
	}
	if delta && !s.opts.Full && len(tl.Diagnostics) >= s.diags {
		s.buf = s.appendDelta(append(s.buf, `,"delta":`...), tl)
	} else {
		s.buf = timeline.AppendJSON(append(s.buf, `,"timeline":`...), tl)
	}
	s.buf = append(s.buf, "}\n"...)
	s.w.Write(s.buf)
	s.remember(tl)
	if s.opts.FlushEach {
		s.w.Flush()
	}
}

// snapshot answers with the whole current timeline, and leaves what the
// last timeline reply showed as it was: the next delta is relative to
// that reply, not to this one.
func (s *server) snapshot(id int64) {
	s.buf = strconv.AppendInt(append(s.buf[:0], `{"type":"timeline","id":`...), id, 10)
	s.buf = timeline.AppendJSON(append(s.buf, `,"timeline":`...), s.eng.Timeline())
	s.w.Write(append(s.buf, "}\n"...))
}

// appendDelta appends what changed since the last timeline reply:
// {"diagnostics":[new ones],"items":{"index":item,...},"len":L,"now":T}.
func (s *server) appendDelta(dst []byte, tl *timeline.Timeline) []byte {
	dst = append(dst, '{')
	if len(tl.Diagnostics) > s.diags {
		dst = timeline.AppendDiagnostics(append(dst, `"diagnostics":`...), tl.Diagnostics[s.diags:])
		dst = append(dst, ',')
	}
	dst = append(dst, `"items":{`...)
	first := true
	for i, it := range tl.Items {
		if i < len(s.sent) && s.sent[i].it == it && s.sent[i].version == it.Version && it.Version != 0 {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(strconv.AppendInt(append(dst, '"'), int64(i), 10), '"', ':')
		dst = timeline.AppendItem(dst, it)
	}
	dst = strconv.AppendInt(append(dst, `},"len":`...), int64(len(tl.Items)), 10)
	dst = strconv.AppendInt(append(dst, `,"now":`...), tl.Now, 10)
	return append(dst, '}')
}

// remember records what the reply just written showed.
func (s *server) remember(tl *timeline.Timeline) {
	s.sent = s.sent[:0]
	for _, it := range tl.Items {
		s.sent = append(s.sent, sentItem{it: it, version: it.Version})
	}
	s.diags = len(tl.Diagnostics)
}
