package mcptools_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsim/toolsim/mcptools"
)

// wait bounds every wait for something the test knows will happen; it only
// matters when the code under test is broken.
const wait = 20 * time.Second

// syncBuffer collects the server log; a failed test prints it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start returns a server closed when the test ends.
func start(t *testing.T, opts mcptools.Options) *mcptools.Server {
	t.Helper()
	log := &syncBuffer{}
	opts.Log = log
	s, err := mcptools.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", log)
		}
	})
	return s
}

// connect returns an SDK client session on s, closed when the test ends.
func connect(t *testing.T, s *mcptools.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcptools-test", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.URL()}, nil)
	if err != nil {
		t.Fatalf("Connect %s: %v", s.URL(), err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// result is what a client's CallTool gave.
type result struct {
	text    string
	isError bool
	err     error
}

// callAsync runs CallTool in a goroutine; its result arrives on the channel.
func callAsync(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams) <-chan result {
	ch := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(ctx, params)
		ch <- toResult(res, err)
	}()
	return ch
}

func toResult(res *mcp.CallToolResult, err error) result {
	if err != nil {
		return result{err: err}
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return result{text: strings.Join(texts, "\n"), isError: res.IsError}
}

// recv takes one value from ch, failing the test after wait.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(wait):
		t.Fatalf("no %s within %v", what, wait)
		panic("unreachable")
	}
}

// next is s.Next for a call the test knows is coming.
func next(t *testing.T, s *mcptools.Server) *mcptools.Call {
	t.Helper()
	c, err := s.Next(wait)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return c
}

// rawPost sends body to s on session cs with the headers a client sends,
// and returns the response (the caller closes its body).
func rawPost(ctx context.Context, s *mcptools.Server, cs *mcp.ClientSession, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL(), strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
	return http.DefaultClient.Do(req)
}

// rawPostAsync posts body in a goroutine and sends the response body (or
// the error) when the server has written all of it.
func rawPostAsync(ctx context.Context, s *mcptools.Server, cs *mcp.ClientSession, body string) <-chan result {
	ch := make(chan result, 1)
	go func() {
		resp, err := rawPost(ctx, s, cs, body)
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		ch <- result{text: string(b), err: err}
	}()
	return ch
}
