package mcptools_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsim/toolsim/mcptools"
)

func TestToolsList(t *testing.T) {
	tests := []struct {
		name     string
		tools    []string
		readOnly bool
		want     []string
	}{
		{name: "default", want: []string{"bash", "edit_file", "glob", "grep", "read", "todowrite", "web_fetch"}},
		{name: "custom", tools: []string{"lookup", "write"}, want: []string{"lookup", "write"}},
		{name: "read-only", tools: []string{"grep"}, readOnly: true, want: []string{"grep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, mcptools.Options{Tools: tt.tools, ReadOnly: tt.readOnly})
			cs := connect(t, s, nil)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				checkSchema(t, tool, tt.readOnly)
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("tool names (-want +got):\n%s", diff)
			}
		})
	}
}

// checkSchema asserts tool's input schema: an object requiring the string
// member "call" and allowing others.
func checkSchema(t *testing.T, tool *mcp.Tool, readOnly bool) {
	t.Helper()
	b, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatalf("%s: marshal schema: %v", tool.Name, err)
	}
	type schema struct {
		Type       string
		Properties map[string]struct{ Type string }
		Required   []string
		Additional bool `json:"additionalProperties"`
	}
	var got schema
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: schema %s: %v", tool.Name, b, err)
	}
	want := schema{Type: "object", Properties: map[string]struct{ Type string }{"call": {Type: "string"}},
		Required: []string{"call"}, Additional: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: schema (-want +got):\n%s", tool.Name, diff)
	}
	if tool.Description == "" {
		t.Errorf("%s: no description", tool.Name)
	}
	if got := tool.Annotations != nil && tool.Annotations.ReadOnlyHint; got != readOnly || (!readOnly && tool.Annotations != nil) {
		t.Errorf("%s: annotations %+v, want readOnlyHint %v (and none without ReadOnly)", tool.Name, tool.Annotations, readOnly)
	}
}

func TestNewRejectsBadTools(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
		want  string
	}{
		{name: "empty", tools: []string{}, want: "Options.Tools is empty"},
		{name: "bad char", tools: []string{"grep", "two words"}, want: `Options.Tools[1] "two words"`},
		{name: "twice", tools: []string{"grep", "grep"}, want: "listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := mcptools.New(mcptools.Options{Tools: tt.tools})
			if err == nil {
				s.Close()
				t.Fatalf("New(%q) succeeded; want an error containing %q", tt.tools, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%q) = %v; want it to contain %q", tt.tools, err, tt.want)
			}
		})
	}
}

func TestFinish(t *testing.T) {
	tests := []struct {
		name string
		out  mcptools.Outcome
		want result
	}{
		{name: "ok", out: mcptools.Outcome{OK: true, Text: "3 matches"}, want: result{text: "3 matches"}},
		{name: "failed", out: mcptools.Outcome{Text: "no such file"}, want: result{text: "no such file", isError: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, mcptools.Options{})
			cs := connect(t, s, nil)
			got := callAsync(context.Background(), cs, &mcp.CallToolParams{
				Name: "grep", Arguments: map[string]any{"call": "c1", "pattern": "TODO"}})
			c := next(t, s)
			if c.Tool != "grep" || c.CallArg != "c1" || c.Session != cs.ID() || c.Seq != 1 {
				t.Errorf("call = tool %q call %q session %q seq %d; want grep, c1, %q, 1", c.Tool, c.CallArg, c.Session, c.Seq, cs.ID())
			}
			var args map[string]any
			if err := json.Unmarshal(c.Args, &args); err != nil {
				t.Fatalf("Args %s: %v", c.Args, err)
			}
			if diff := cmp.Diff(map[string]any{"call": "c1", "pattern": "TODO"}, args); diff != "" {
				t.Errorf("Args (-want +got):\n%s", diff)
			}
			select {
			case r := <-got:
				t.Fatalf("CallTool returned %+v before Finish", r)
			default:
			}
			if err := c.Finish(tt.out); err != nil {
				t.Fatalf("Finish: %v", err)
			}
			if diff := cmp.Diff(tt.want, recv(t, got, "CallTool result"), cmp.AllowUnexported(result{})); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if err := c.Finish(tt.out); !errors.Is(err, mcptools.ErrFinished) {
				t.Errorf("second Finish = %v; want ErrFinished", err)
			}
		})
	}
}

// TestReleaseByID: two calls of one tool, released in reverse order by
// their JSON-RPC ids, each reach their own client.
func TestReleaseByID(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	results := map[string]<-chan result{}
	for _, arg := range []string{"c1", "c2"} {
		results[arg] = callAsync(context.Background(), cs, &mcp.CallToolParams{
			Name: "bash", Arguments: map[string]any{"call": arg, "command": "echo " + arg}})
	}
	ids := map[string]string{} // CallArg -> JSON-RPC id
	for range 2 {
		c := next(t, s)
		ids[c.CallArg] = c.ID
	}
	if ids["c1"] == ids["c2"] || ids["c1"] == "" {
		t.Fatalf("ids = %v; want two distinct ids", ids)
	}
	for _, arg := range []string{"c2", "c1"} {
		c, ok := s.Lookup(cs.ID(), ids[arg])
		if !ok {
			t.Fatalf("Lookup(%q) found nothing", ids[arg])
		}
		if err := c.Finish(mcptools.Outcome{OK: true, Text: "out of " + ids[arg]}); err != nil {
			t.Fatalf("Finish %s: %v", ids[arg], err)
		}
		want := result{text: "out of " + ids[arg]}
		if diff := cmp.Diff(want, recv(t, results[arg], arg+" result"), cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("%s result (-want +got):\n%s", arg, diff)
		}
		if arg == "c2" {
			select {
			case r := <-results["c1"]:
				t.Fatalf("c1 returned %+v when only c2 was released", r)
			default:
			}
		}
	}
}

func TestProgress(t *testing.T) {
	progress := make(chan mcp.ProgressNotificationParams, 10)
	s := start(t, mcptools.Options{})
	cs := connect(t, s, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- *req.Params
		},
	})
	got := callAsync(context.Background(), cs, &mcp.CallToolParams{
		Meta: mcp.Meta{"progressToken": "tok-1"},
		Name: "web_fetch", Arguments: map[string]any{"call": "c7", "url": "https://example.com"}})
	c := next(t, s)
	if diff := cmp.Diff(any("tok-1"), c.ProgressToken); diff != "" {
		t.Errorf("ProgressToken (-want +got):\n%s", diff)
	}
	var want, seen []mcp.ProgressNotificationParams
	for i, msg := range []string{"connecting", "reading", "done"} {
		want = append(want, mcp.ProgressNotificationParams{ProgressToken: "tok-1", Progress: float64(i + 1), Total: 3, Message: msg})
		if err := c.Progress(float64(i+1), 3, msg); err != nil {
			t.Fatalf("Progress %d: %v", i+1, err)
		}
		p := recv(t, progress, "progress notification")
		p.Meta = nil
		seen = append(seen, p)
	}
	if err := c.Finish(mcptools.Outcome{OK: true, Text: "<html>"}); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	if r := recv(t, got, "CallTool result"); r.err != nil || r.text != "<html>" {
		t.Errorf("result = %+v; want text <html>", r)
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("progress notifications (-want +got):\n%s", diff)
	}
	if err := c.Progress(4, 3, "late"); !errors.Is(err, mcptools.ErrFinished) {
		t.Errorf("Progress after Finish = %v; want ErrFinished", err)
	}
}

func TestProgressWithoutToken(t *testing.T) {
	s := start(t, mcptools.Options{})
	cs := connect(t, s, nil)
	got := callAsync(context.Background(), cs, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"call": "c1"}})
	c := next(t, s)
	if err := c.Progress(1, 2, "half"); !errors.Is(err, mcptools.ErrNoProgressToken) {
		t.Errorf("Progress = %v; want ErrNoProgressToken", err)
	}
	if err := c.Finish(mcptools.Outcome{OK: true, Text: "x"}); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	recv(t, got, "CallTool result")
}

func TestNextTimeout(t *testing.T) {
	s := start(t, mcptools.Options{})
	if c, err := s.Next(10 * time.Millisecond); !errors.Is(err, mcptools.ErrTimeout) {
		t.Errorf("Next = %v, %v; want ErrTimeout", c, err)
	}
	if cn, err := s.NextCancel(10 * time.Millisecond); !errors.Is(err, mcptools.ErrTimeout) {
		t.Errorf("NextCancel = %+v, %v; want ErrTimeout", cn, err)
	}
}
