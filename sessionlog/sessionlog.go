package sessionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/timeline"
)

// Divergence is how the app's session log first differs from what
// toolsim sent. What names no tool and blurs nothing itself: harness
// signatures blur its quoted ids.
type Divergence struct {
	Log  string // the log's name (a path, or "opencode export ID")
	What string
}

// Error says what differs, and in which log.
func (d *Divergence) Error() string { return d.What + " (" + d.Log + ")" }

// Call is one call as SPEC's reference engine shows it at the end: its
// key (toolsim's "call" argument, else its id), its id and its status.
type Call struct {
	Key, ID string
	Status  timeline.Status
}

// Compare imports data, the session log named name, as format from
// (formats.Names; "" detects it), and compares its calls with those of
// sent, the events toolsim acted out. It returns nil when they match, a
// *Divergence when they do not or the log does not import whole.
func Compare(sent []event.Event, name string, data []byte, from string) error {
	logged, problems, err := Import(name, data, from)
	if err != nil {
		return &Divergence{name, fmt.Sprintf("the session log does not import: %v", err)}
	}
	if len(problems) > 0 { // first: the calls compared would not be the log's
		p := problems[0]
		return &Divergence{name, fmt.Sprintf("the importer skipped or partly read %d record(s) of the session log; the first, line %d: %s", len(problems), p.Line, p.Reason)}
	}
	if d := Differ(Calls(sent), Calls(logged)); d != "" {
		return &Divergence{name, d}
	}
	return nil
}

// Import reads a session log's events and the importer's problems. A log
// that holds no event (a conversation with no call yet) gives no events
// and no error.
func Import(name string, data []byte, from string) ([]event.Event, []importer.Problem, error) {
	src, err := formats.Open(bytes.NewReader(data), from, importer.Options{Name: name})
	if err != nil {
		return nil, nil, err
	}
	var evs []event.Event
	for {
		var ev event.Event
		err := src.Next(&ev)
		if errors.Is(err, io.EOF) {
			return evs, src.Problems, nil
		}
		if errors.Is(err, formats.ErrNoEvents) {
			return nil, src.Problems, nil // a conversation with no call yet is not an error
		}
		if err != nil {
			return nil, src.Problems, err
		}
		evs = append(evs, ev)
	}
}

// Calls is every call SPEC's reference engine shows after evs and the
// end of the stream, in timeline order.
func Calls(evs []event.Event) []Call {
	ref := engine.New(engine.Options{})
	for i := range evs {
		ref.Apply(&evs[i])
	}
	ref.Finish()
	keys := keys(evs)
	var out []Call
	for _, it := range ref.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			k := t.ID
			if q := keys[t.ID]; len(q) > 0 {
				k, keys[t.ID] = q[0], q[1:]
			}
			out = append(out, Call{Key: k, ID: t.ID, Status: t.Status})
			return true
		})
	}
	return out
}

// keys lists, per id, the key of each of its calls in start order: its
// "call" argument, else its id.
func keys(evs []event.Event) map[string][]string {
	out := map[string][]string{}
	for i := range evs {
		ev := &evs[i]
		if ev.Kind != event.KindToolStart {
			continue
		}
		var args struct {
			Call string `json:"call"`
		}
		k := ev.ID
		if len(ev.Args) > 0 && json.Unmarshal(ev.Args, &args) == nil && args.Call != "" {
			k = args.Call
		}
		out[ev.ID] = append(out[ev.ID], k)
	}
	return out
}

// Differ says how logged first differs from sent, or "": a call sent and
// not logged, a call logged and never sent, a call in another state, or
// the calls in another order. The k-th call of a key pairs with the k-th.
func Differ(sent, logged []Call) string {
	pos := pairs(sent, logged)
	last := -1
	for i, s := range sent {
		j := pos[i]
		switch {
		case j < 0:
			return fmt.Sprintf("call %q is not in the session log (%s as sent)", s.Key, s.Status)
		case logged[j].Status != s.Status:
			return fmt.Sprintf("call %q is %s in the session log, %s as sent", s.Key, logged[j].Status, s.Status)
		case j < last:
			return fmt.Sprintf("the session log puts call %q before call %q, sent after it", s.Key, logged[last].Key)
		}
		last = j
	}
	used := map[int]bool{}
	for _, j := range pos {
		used[j] = true
	}
	for j, l := range logged {
		if !used[j] {
			return fmt.Sprintf("the session log has a call %q toolsim never sent (%s)", l.Key, l.Status)
		}
	}
	return ""
}

// pairs gives, for each sent call, the index of its logged call (-1:
// none): the k-th sent call of a key pairs with the k-th logged one.
func pairs(sent, logged []Call) []int {
	byKey := map[string][]int{}
	for j, l := range logged {
		byKey[l.Key] = append(byKey[l.Key], j)
	}
	out := make([]int, len(sent))
	for i, s := range sent {
		out[i] = -1
		if js := byKey[s.Key]; len(js) > 0 {
			out[i], byKey[s.Key] = js[0], js[1:]
		}
	}
	return out
}
