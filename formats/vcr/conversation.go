package vcr

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"

	"gopkg.in/yaml.v3"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// parsed is one interaction after the first pass: decoded, its request
// parsed, and placed in a conversation.
type parsed struct {
	line       int // the interaction's first line
	index      int // its id, else its position
	in         interaction
	decodeErr  error
	reqOffset  int // added to a line of the request body: its cassette line
	respOffset int // the same for the response body

	req      *request // nil: not a model request (reqErr says why, if known)
	reqErr   error
	problems []string       // what the request's parse reported
	ignored  map[string]int // what it counted as ignored

	conv      *conversation // nil: not a model request, or chained to nothing
	lcp       int           // messages it shares with the previous request of conv
	prevLen   int           // how many that previous request held
	start     int           // where its new messages start (before the echo is skipped)
	rewritten bool          // it does not repeat the whole previous request
}

// conversation is a chain of requests that continue one another.
type conversation struct {
	n        int      // its number, in order of first appearance
	last     []uint64 // the message keys of its latest request
	count    int      // its requests
	first    int      // the position of its first request
	requests int      // requests mapped so far (second pass)
	produced bool     // its last response was a model response, echoed back next
}

// parseInteraction decodes one interaction and parses its request, keeping
// what the parse reports for the second pass.
func parseInteraction(node *yaml.Node, i int) *parsed {
	p := &parsed{line: node.Line, index: i}
	if err := node.Decode(&p.in); err != nil {
		p.decodeErr = err
		return p
	}
	if p.in.ID != nil {
		p.index = *p.in.ID
	}
	p.reqOffset = bodyOffset(findKey(node, "request", "body"), p.line)
	p.respOffset = bodyOffset(findKey(node, "response", "body"), p.line)
	scratch := &sse.Turn{Ignored: map[string]int{}}
	report := func(reason string) error {
		p.problems = append(p.problems, reason)
		return nil
	}
	p.req, p.reqErr = parseRequest([]byte(p.in.Request.Body), p.in.Request.URL, scratch, report)
	p.ignored = scratch.Ignored
	return p
}

// assignConversations places every model request in a conversation: the
// one whose latest request shares the longest common prefix of messages
// with it (compared by content: role, text, call and result ids and
// outputs), or a new one when none shares its first message. A Responses
// request chained with previous_response_id continues the conversation of
// the request before it. It returns the number of the main conversation:
// the one with the most requests, then the most messages, then the one
// that started last (a title request is sent before the prompt it names).
func assignConversations(items []*parsed) int {
	var convs []*conversation
	var prev *conversation
	for i, p := range items {
		if p.req == nil {
			continue
		}
		keys := p.req.keys()
		var best *conversation
		bestLCP := 0
		if p.req.chained {
			best = prev
		} else {
			for _, c := range convs {
				if n := commonPrefix(c.last, keys); n > bestLCP {
					best, bestLCP = c, n
				}
			}
		}
		if best == nil {
			best = &conversation{n: len(convs), first: i}
			convs = append(convs, best)
		} else if !p.req.chained {
			p.lcp, p.prevLen = bestLCP, len(best.last)
			p.start = bestLCP
			if bestLCP < len(best.last) {
				p.rewritten = true
				p.start = max(bestLCP, afterLastModel(p.req.msgs))
			}
		}
		p.conv = best
		best.count++
		if !p.req.chained {
			best.last = keys
		} else {
			best.last = append(best.last, keys...)
		}
		prev = best
	}
	main := -1
	var top *conversation
	for _, c := range convs {
		if top == nil || cmp.Or(cmp.Compare(c.count, top.count), cmp.Compare(len(c.last), len(top.last)), 1) > 0 {
			top = c
		}
	}
	if top != nil {
		main = top.n
	}
	return main
}

// commonPrefix is how many leading keys a and b share.
func commonPrefix(a, b []uint64) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// afterLastModel is the index after the last model message.
func afterLastModel(msgs []message) int {
	for j := len(msgs) - 1; j >= 0; j-- {
		if msgs[j].model {
			return j + 1
		}
	}
	return 0
}

// keys are the content keys of a request's messages.
func (r *request) keys() []uint64 {
	out := make([]uint64, len(r.msgs))
	for i := range r.msgs {
		out[i] = r.msgs[i].key()
	}
	return out
}

// key is a hash of what a message says: who said it, its text, the ids
// and names of its calls, the ids, status and output of its results.
// Formatting (spacing, cache_control marks, argument encoding) does not
// change it.
func (m *message) key() uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(s string) {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	role := "user"
	switch {
	case m.system:
		role = "system"
	case m.model:
		role = "model"
	}
	put(role)
	for _, t := range m.texts {
		put(t)
	}
	for _, c := range m.calls {
		put("call")
		put(c.ID)
		put(c.Name)
	}
	for _, r := range m.results {
		put("result")
		put(r.id)
		if !r.ok {
			put("failed")
		}
		put(r.output)
	}
	return h.Sum64()
}
