package agent

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
)

// BoundaryError is a finding at the app's real boundary, not on its
// live screen: the request oracle (what the app sends its model), the MCP
// oracle (what it tells its tools), the resume oracle (what it shows
// once quit and resumed) or the session-log oracle (what its own log
// records). toolsim reports it as the engine's failure at
// the event that showed it, with this message, so its signature names the
// oracle and the rule (docs/agents.md).
type BoundaryError struct {
	Oracle string // "request", "mcp", "resume" or "session-log"
	Detail string
}

func (e *BoundaryError) Error() string { return e.Oracle + " oracle: " + e.Detail }

// checkRequest is the request oracle, on each model request of the
// conversation: every tool result reaches the model once, paired with
// its own call, carrying what its tool returned.
func (e *Engine) checkRequest(r *modelapi.Request) error {
	if r.Err != nil {
		return &BoundaryError{"request", fmt.Sprintf("the app's model request does not parse: %v", r.Err)}
	}
	seen := map[string]int{}
	for _, res := range r.Results {
		if res.CallID == "" {
			continue // Gemini may send none: paired by name, not checked here
		}
		seen[res.CallID]++
		n := callsWith(r, res.CallID)
		if n == 0 {
			return &BoundaryError{"request", fmt.Sprintf("a result for call %q, which the request's history does not hold", res.CallID)}
		}
		if seen[res.CallID] > n {
			return &BoundaryError{"request", fmt.Sprintf("the result of call %q reaches the model %s in one request, for %s of that id", res.CallID, times(seen[res.CallID]), howMany(n, "call"))}
		}
	}
	ended := map[string]int{} // the ended calls of each reused id
	for _, c := range e.sentInOrder() {
		o := e.sent[c]
		if e.starts[c.CallArg] > 1 {
			ended[c.CallArg]++ // which call a result answers is not knowable: counted below
			continue
		}
		res, ok := resultOf(r, c.CallArg)
		if !ok {
			return &BoundaryError{"request", fmt.Sprintf("call %q ended, but its result never reached the model", c.CallArg)}
		}
		if !strings.Contains(res.Text, strings.TrimSpace(o.Text)) {
			return &BoundaryError{"request", fmt.Sprintf("call %q reaches the model with a result its tool did not return: %q", c.CallArg, clip(res.Text))}
		}
	}
	return reusedReached(ended, seen)
}

// reusedReached checks that each reused id has at least as many results in
// the request (seen) as calls of it ended: two calls of one id that both
// returned are two results the model must get.
func reusedReached(ended, seen map[string]int) error {
	ids := make([]string, 0, len(ended))
	for id := range ended {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if seen[id] < ended[id] {
			return &BoundaryError{"request", fmt.Sprintf("%s of id %q ended, but %s reached the model", howMany(ended[id], "call"), id, howMany(seen[id], "result"))}
		}
	}
	return nil
}

// sentInOrder lists the released calls in arrival order (then by call
// id), so that the first finding is the same on every run.
func (e *Engine) sentInOrder() []*mcptools.Call {
	out := make([]*mcptools.Call, 0, len(e.sent))
	for c := range e.sent {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].CallArg < out[j].CallArg
	})
	return out
}

// checkCancelled is the MCP oracle at a cancel: every call running when
// the user cancelled gets notifications/cancelled, within Timing.Patience.
func (e *Engine) checkCancelled(running []*mcptools.Call) error {
	timer := time.NewTimer(e.timing.Patience)
	defer timer.Stop()
	for _, c := range running {
		select {
		case <-c.Done():
		case <-timer.C:
		}
		if !c.Cancelled() {
			how := "still runs"
			if c.Dropped() {
				how = "was dropped (its HTTP request closed)"
			}
			return &BoundaryError{"mcp", fmt.Sprintf("call %q ran when the user cancelled, got no notifications/cancelled and %s", c.CallArg, how)}
		}
	}
	return nil
}

// callsWith counts the calls with id in the request's history: an id
// reused across steps (OpenAI-compatible providers do) is several calls,
// each with its own result.
func callsWith(r *modelapi.Request, id string) int {
	n := 0
	for _, c := range r.Calls {
		if c.ID == id {
			n++
		}
	}
	return n
}

// times says "twice" for 2, else "N times".
func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// howMany says "no call", "one call", "2 calls", … for noun "call".
func howMany(n int, noun string) string {
	switch n {
	case 0:
		return "no " + noun
	case 1:
		return "one " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// resultOf is the request's first result for call id.
func resultOf(r *modelapi.Request, id string) (modelapi.Result, bool) {
	for _, res := range r.Results {
		if res.CallID == id {
			return res, true
		}
	}
	return modelapi.Result{}, false
}

// clip shortens a text for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
