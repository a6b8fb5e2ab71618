package mcptools_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsim/toolsim/mcptools"
)

// TestClientCancel: the SDK client cancels its context during a call; the
// server records notifications/cancelled with the call's id.
func TestClientCancel(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	got := callAsync(ctx, cs, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"call": "c1", "command": "sleep 100"}})
	c := next(t, s)
	cancel()
	if r := recv(t, got, "CallTool result"); !errors.Is(r.err, context.Canceled) {
		t.Errorf("CallTool = %+v; want context.Canceled", r)
	}
	cn, err := s.NextCancel(wait)
	if err != nil {
		t.Fatalf("NextCancel: %v", err)
	}
	if cn.ID != c.ID || cn.Session != cs.ID() || cn.Call != c || !cn.Unreleased {
		t.Errorf("cancel = %+v; want id %s session %s naming the unreleased call", cn, c.ID, cs.ID())
	}
	if !c.Cancelled() || c.CancelReason() == "" {
		t.Errorf("Cancelled() = %t, CancelReason() = %q; want true and the client's reason", c.Cancelled(), c.CancelReason())
	}
	recv(t, c.Done(), "handler return")
	if err := c.Finish(mcptools.Outcome{OK: true, Text: "late"}); !errors.Is(err, mcptools.ErrCancelled) {
		t.Errorf("Finish after cancel = %v; want ErrCancelled", err)
	}
	if diff := cmp.Diff([]string{c.ID}, cancelIDs(s.Cancels())); diff != "" {
		t.Errorf("Cancels ids (-want +got):\n%s", diff)
	}
}

func cancelIDs(cs []mcptools.Cancel) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// TestStringIDs: a client using string JSON-RPC ids (sent raw) gets calls
// identified and cancelled by them; a cancel naming no call is recorded.
func TestStringIDs(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	ctx := context.Background()
	call := func(id, arg string) <-chan result {
		return rawPostAsync(ctx, s, cs, `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call",`+
			`"params":{"name":"grep","arguments":{"call":"`+arg+`","pattern":"x"}}}`)
	}
	kept := call("req-a", "c1")
	a := next(t, s)
	call("req-b", "c2")
	b := next(t, s)
	if a.ID != mcptools.StringID("req-a") || b.ID != `"req-b"` {
		t.Fatalf("ids = %s, %s; want \"req-a\", \"req-b\"", a.ID, b.ID)
	}
	postCancel(t, s, cs, `"req-b"`, "user interrupt")
	postCancel(t, s, cs, "999", "stale")
	want := []mcptools.Cancel{
		{Session: cs.ID(), ID: `"req-b"`, Reason: "user interrupt", Call: b, Unreleased: true},
		{Session: cs.ID(), ID: "999", Reason: "stale"},
	}
	var got []mcptools.Cancel
	for range want {
		cn, err := s.NextCancel(wait)
		if err != nil {
			t.Fatalf("NextCancel: %v", err)
		}
		got = append(got, cn)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y *mcptools.Call) bool { return x == y })); diff != "" {
		t.Errorf("cancels (-want +got):\n%s", diff)
	}
	if a.Cancelled() || !b.Cancelled() || b.CancelReason() != "user interrupt" || b.Dropped() {
		t.Errorf("a Cancelled %t; b Cancelled %t (reason %q) Dropped %t; want false; true (user interrupt) false",
			a.Cancelled(), b.Cancelled(), b.CancelReason(), b.Dropped())
	}
	if c, ok := s.Lookup(cs.ID(), mcptools.StringID("req-a")); !ok || c != a {
		t.Fatalf("Lookup(\"req-a\") = %v, %t; want call a", c, ok)
	}
	if err := a.Finish(mcptools.Outcome{OK: true, Text: "found it"}); err != nil {
		t.Fatalf("Finish a: %v", err)
	}
	if r := recv(t, kept, "raw response"); r.err != nil || !strings.Contains(r.text, `"id":"req-a"`) || !strings.Contains(r.text, "found it") {
		t.Errorf("raw response = %+v; want the result for id \"req-a\"", r)
	}
}

// postCancel posts notifications/cancelled for the raw JSON id.
func postCancel(t *testing.T, s *mcptools.Server, cs *mcp.ClientSession, id, reason string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"` + reason + `"}}`
	resp, err := rawPost(context.Background(), s, cs, body)
	if err != nil {
		t.Fatalf("posting cancel %s: %v", id, err)
	}
	resp.Body.Close()
}

// TestDropped: the client's HTTP request goes away without a cancel
// notification; the call is dropped, not cancelled.
func TestDropped(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	ctx, abort := context.WithCancel(context.Background())
	posted := rawPostAsync(ctx, s, cs, `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"glob","arguments":{"call":"c3"}}}`)
	c := next(t, s)
	abort()
	recv(t, posted, "aborted POST")
	recv(t, c.Done(), "handler return")
	if !c.Dropped() || c.Cancelled() || c.Pending() {
		t.Errorf("Dropped %t Cancelled %t Pending %t; want true false false", c.Dropped(), c.Cancelled(), c.Pending())
	}
	if cause := c.DropCause(); cause == nil || !strings.Contains(cause.Error(), "HTTP request ended") {
		t.Errorf("DropCause = %v; want the HTTP request's end", cause)
	}
	if err := c.Finish(mcptools.Outcome{OK: true}); !errors.Is(err, mcptools.ErrDropped) {
		t.Errorf("Finish = %v; want ErrDropped", err)
	}
	if len(s.Cancels()) != 0 {
		t.Errorf("Cancels = %+v; want none", s.Cancels())
	}
}

func TestReset(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	var results []<-chan result
	for _, arg := range []string{"c1", "c2", "c3"} {
		results = append(results, callAsync(context.Background(), cs, &mcp.CallToolParams{
			Name: "todowrite", Arguments: map[string]any{"call": arg}}))
		next(t, s) // in arrival order, so results[i] is the i-th call
	}
	done := s.Calls()[1]
	if err := done.Finish(mcptools.Outcome{OK: true, Text: "ok"}); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	leaked := s.Reset()
	var leakedArgs []string
	for _, c := range leaked {
		leakedArgs = append(leakedArgs, c.CallArg)
		if !c.Leaked() || c.Pending() {
			t.Errorf("%s: Leaked %t Pending %t; want true false", c.CallArg, c.Leaked(), c.Pending())
		}
		if err := c.Finish(mcptools.Outcome{OK: true}); !errors.Is(err, mcptools.ErrReset) {
			t.Errorf("%s: Finish after Reset = %v; want ErrReset", c.CallArg, err)
		}
	}
	if diff := cmp.Diff([]string{"c1", "c3"}, leakedArgs); diff != "" {
		t.Errorf("leaked calls (-want +got):\n%s", diff)
	}
	var got []result
	for i, ch := range results {
		got = append(got, recv(t, ch, fmt.Sprintf("result of call %d", i+1)))
	}
	want := []result{{text: "toolsim: scenario reset", isError: true}, {text: "ok"}, {text: "toolsim: scenario reset", isError: true}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("client results (-want +got):\n%s", diff)
	}
	if n := len(s.Calls()); n != 0 {
		t.Errorf("Calls after Reset: %d; want 0", n)
	}
	if done.Leaked() {
		t.Errorf("the finished call is Leaked")
	}
}

// TestCloseWhileBlocked: Close releases a blocked call and returns only
// once its handler has returned.
func TestCloseWhileBlocked(t *testing.T) {
	s, err := mcptools.New(mcptools.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	cs := connect(t, s, nil)
	got := callAsync(context.Background(), cs, &mcp.CallToolParams{Name: "edit_file", Arguments: map[string]any{"call": "c1"}})
	c := next(t, s)
	released := s.Close()
	if len(released) != 1 || released[0] != c {
		t.Errorf("Close released %v; want the blocked call", released)
	}
	select {
	case <-c.Done():
	default:
		t.Errorf("Close returned before the call's handler did")
	}
	if r := recv(t, got, "CallTool after Close"); r.err == nil && (!r.isError || r.text != "toolsim: server closed") {
		t.Errorf("CallTool = %+v; want an error or the failed result \"toolsim: server closed\"", r)
	}
	if err := c.Finish(mcptools.Outcome{OK: true}); !errors.Is(err, mcptools.ErrClosed) {
		t.Errorf("Finish after Close = %v; want ErrClosed", err)
	}
	if _, err := s.Next(wait); !errors.Is(err, mcptools.ErrClosed) {
		t.Errorf("Next after Close = %v; want ErrClosed", err)
	}
	if again := s.Close(); again != nil {
		t.Errorf("second Close released %v; want nothing", again)
	}
}
