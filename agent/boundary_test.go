package agent

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
)

// TestRequestOracle: each result reaches the model once, paired with a
// call of its id, carrying what its tool returned; each break is a
// BoundaryError of the request oracle naming what broke.
func TestRequestOracle(t *testing.T) {
	a, b := &mcptools.Call{CallArg: "a"}, &mcptools.Call{CallArg: "b"}
	calls := []modelapi.Call{{ID: "a", Name: "grep"}, {ID: "b", Name: "read"}}
	ok := []modelapi.Result{{CallID: "a", Text: "3 matches"}, {CallID: "b", Text: "boom", IsError: true}}
	tests := []struct {
		name    string
		results []modelapi.Result
		calls   []modelapi.Call
		want    string // "" holds
	}{
		{"each once, its own text", ok, calls, ""},
		{"decorated text still holds", []modelapi.Result{{CallID: "a", Text: `{"content":"3 matches"}`}, ok[1]}, calls, ""},
		{"twice in one request", append(ok, ok[0]), calls, `the result of call "a" reaches the model twice in one request, for one call of that id`},
		{"a reused id: one result per call", append(ok, ok[0]), append(calls, calls[0]), ""},
		{"a reused id: more results than calls", append(ok, ok[0], ok[0]), append(calls, calls[0]), `the result of call "a" reaches the model 3 times in one request, for 2 calls of that id`},
		{"no call of its id", ok, calls[:1], `a result for call "b", which the request's history does not hold`},
		{"never reached", ok[:1], calls, `call "b" ended, but its result never reached the model`},
		{"another call's text", []modelapi.Result{{CallID: "a", Text: "boom"}, {CallID: "b", Text: "3 matches"}}, calls, `call "a" reaches the model with a result its tool did not return`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{starts: map[string]int{"a": 1, "b": 1},
				sent: map[*mcptools.Call]mcptools.Outcome{a: {OK: true, Text: "3 matches\n"}, b: {Text: "boom"}}}
			err := e.checkRequest(&modelapi.Request{Calls: tt.calls, Results: tt.results})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("want no finding, got %v", err)
				}
				return
			}
			var be *BoundaryError
			if !errors.As(err, &be) || be.Oracle != "request" || !strings.Contains(be.Detail, tt.want) {
				t.Fatalf("got %v, want a request oracle finding saying %q", err, tt.want)
			}
		})
	}
}

// TestRequestOracleSkipsReusedIDs: with two calls of one id, which call
// a result answers is not knowable, so its text is not judged.
func TestRequestOracleSkipsReusedIDs(t *testing.T) {
	a := &mcptools.Call{CallArg: "a"}
	e := &Engine{starts: map[string]int{"a": 2}, sent: map[*mcptools.Call]mcptools.Outcome{a: {OK: true, Text: "one"}}}
	r := &modelapi.Request{Calls: []modelapi.Call{{ID: "a"}}, Results: []modelapi.Result{{CallID: "a", Text: "two"}}}
	if err := e.checkRequest(r); err != nil {
		t.Fatalf("a reused id's result judged: %v", err)
	}
}

// TestRequestOracleCountsReusedIDs: two calls of one id that both ended
// are two results the model must get (opencode draws them as one call and
// sends the model one result); any two results of the id will do.
func TestRequestOracleCountsReusedIDs(t *testing.T) {
	a1, a2 := &mcptools.Call{CallArg: "a", Seq: 1}, &mcptools.Call{CallArg: "a", Seq: 2}
	e := &Engine{starts: map[string]int{"a": 2},
		sent: map[*mcptools.Call]mcptools.Outcome{a1: {OK: true, Text: "one"}, a2: {OK: true, Text: "two"}}}
	one := &modelapi.Request{Calls: []modelapi.Call{{ID: "a"}}, Results: []modelapi.Result{{CallID: "a", Text: "two"}}}
	var be *BoundaryError
	if err := e.checkRequest(one); !errors.As(err, &be) || be.Oracle != "request" ||
		be.Detail != `2 calls of id "a" ended, but one result reached the model` {
		t.Fatalf("one result for two ended calls: got %v, want a request oracle finding", err)
	}
	two := &modelapi.Request{Calls: []modelapi.Call{{ID: "a"}, {ID: "a"}},
		Results: []modelapi.Result{{CallID: "a", Text: "two"}, {CallID: "a", Text: "one"}}}
	if err := e.checkRequest(two); err != nil {
		t.Fatalf("two results for two ended calls: %v", err)
	}
}

// TestMCPOracleNamesACallNeverCancelled: a call still running after the
// cancel, with no notifications/cancelled, is an MCP oracle finding once
// Patience (here 1 ms, a bounded wait) has passed.
func TestMCPOracleNamesACallNeverCancelled(t *testing.T) {
	e := &Engine{timing: Timing{Patience: 1}}
	err := e.checkCancelled([]*mcptools.Call{{CallArg: "a"}})
	var be *BoundaryError
	if !errors.As(err, &be) || be.Oracle != "mcp" || !strings.Contains(be.Detail, `call "a" ran when the user cancelled, got no notifications/cancelled and still runs`) {
		t.Fatalf("got %v, want an MCP oracle finding naming call a", err)
	}
	if err := e.checkCancelled(nil); err != nil {
		t.Fatalf("no call running at the cancel: got %v", err)
	}
}

// TestRequestOracleAnswersTheRequest: a request the oracle judges is still
// answered, so the app does not wait on its model through the reset (an
// opencode campaign once saw a turn still busy 10 s after Esc Esc, with
// the request the oracle judged left unanswered).
func TestRequestOracleAnswersTheRequest(t *testing.T) {
	srv, err := modelapi.Start(modelapi.Options{Timeout: 10 * time.Second}) // bounds a request left unanswered
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"},
		{"role":"tool","tool_call_id":"call_x","content":"lost"}],
		"tools":[{"type":"function","function":{"name":"read","parameters":{}}}]}`
	got := make(chan string, 1)
	go func() {
		resp, err := http.Post(srv.URL()+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	e := &Engine{app: &App{P: &Profile{Name: "app"}, Model: srv}, timing: Timing{Request: 40 * time.Second}}
	e.turn.open = true
	var be *BoundaryError
	if _, err := e.request(); !errors.As(err, &be) || be.Oracle != "request" {
		t.Fatalf("got %v, want a request oracle finding", err)
	}
	if answer := <-got; !strings.Contains(answer, finalText) {
		t.Fatalf("the app's request was answered %q, want the final answer %q", answer, finalText)
	}
}
