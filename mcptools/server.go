package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures a Server. The zero value serves DefaultTools and logs
// nothing.
type Options struct {
	// Tools are the tool names offered; nil means DefaultTools().
	Tools []string
	// Log, if set, gets one line per message received, call event and SDK
	// log record.
	Log io.Writer
	// ReadOnly marks every tool readOnlyHint: true. Apps that run a
	// batch's calls at once only when each says it changes nothing
	// (Claude Code runs an MCP tool concurrently only then) run them in
	// parallel, as the calls of a toolsim batch are.
	ReadOnly bool
}

// DefaultTools is the tool set named after toolsim's simulator vocabulary.
func DefaultTools() []string {
	return []string{"grep", "read", "bash", "glob", "edit_file", "web_fetch", "todowrite"}
}

// descriptions are the default tools' short, neutral descriptions.
var descriptions = map[string]string{
	"grep":      "Search file contents for a pattern.",
	"read":      "Read a file.",
	"bash":      "Run a shell command.",
	"glob":      "List files matching a glob pattern.",
	"edit_file": "Edit a file.",
	"web_fetch": "Fetch a web page.",
	"todowrite": "Write the todo list.",
}

// inputSchema is every tool's input schema: an object whose string member
// "call" is required and whose other members are free-form.
var inputSchema = json.RawMessage(`{"type":"object",` +
	`"properties":{"call":{"type":"string","description":"The call id given in your instructions, copied verbatim."}},` +
	`"required":["call"],"additionalProperties":true}`)

// toolName is what MCP allows in a tool name.
var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// Path is the HTTP path the server serves MCP on.
const Path = "/mcp"

// Server is an MCP server over streamable HTTP on 127.0.0.1 whose tool
// calls block until the controller releases them. Its methods are safe for
// concurrent use.
type Server struct {
	tools    []string
	log      *logger
	mcp      *mcp.Server
	http     *http.Server
	url      string
	carriers carriers
	served   chan struct{} // closed when http.Serve has returned

	handlers sync.WaitGroup // tool handlers running; Add under mu, !closed

	mu          sync.Mutex // guards the fields below
	closed      bool
	seq         int
	calls       []*Call       // calls since the last Reset, arrival order
	queue       []*Call       // calls not yet returned by Next
	arrived     chan struct{} // closed and replaced when a call arrives
	cancels     []Cancel      // cancel notifications since the last Reset
	cancelQueue []Cancel      // cancels not yet returned by NextCancel
	cancelled   chan struct{} // closed and replaced when a cancel arrives
}

// New starts a Server listening on 127.0.0.1 at a free port.
func New(opts Options) (*Server, error) {
	tools := opts.Tools
	if tools == nil {
		tools = DefaultTools()
	}
	if err := checkTools(tools); err != nil {
		return nil, err
	}
	s := &Server{
		tools:     append([]string(nil), tools...),
		log:       &logger{w: opts.Log},
		served:    make(chan struct{}),
		arrived:   make(chan struct{}),
		cancelled: make(chan struct{}),
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "toolsim", Version: "1"},
		&mcp.ServerOptions{Logger: s.log.slogger()})
	for _, name := range s.tools {
		t := &mcp.Tool{Name: name, Description: describe(name), InputSchema: inputSchema}
		if opts.ReadOnly {
			t.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		}
		s.mcp.AddTool(t, s.handle)
	}
	s.mcp.AddReceivingMiddleware(s.observe)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: s.log.slogger()})
	mux := http.NewServeMux()
	mux.Handle(Path, &idHandler{next: sdk, carriers: &s.carriers, log: s.log})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mcptools: listening on 127.0.0.1: %w", err)
	}
	s.url = "http://" + ln.Addr().String() + Path
	s.http = &http.Server{Handler: mux}
	go func() {
		defer close(s.served)
		_ = s.http.Serve(ln) // ends with ErrServerClosed at Close
	}()
	s.log.printf("listening url=%s tools=%v", s.url, s.tools)
	return s, nil
}

func checkTools(tools []string) error {
	if len(tools) == 0 {
		return errors.New("mcptools: Options.Tools is empty; leave it nil for DefaultTools")
	}
	seen := map[string]bool{}
	for i, name := range tools {
		if !toolName.MatchString(name) {
			return fmt.Errorf("mcptools: Options.Tools[%d] %q: a tool name is 1-128 of A-Z a-z 0-9 _ . -", i, name)
		}
		if seen[name] {
			return fmt.Errorf("mcptools: Options.Tools[%d] %q: listed twice", i, name)
		}
		seen[name] = true
	}
	return nil
}

func describe(name string) string {
	if d, ok := descriptions[name]; ok {
		return d
	}
	return "The " + name + " tool."
}

// URL is the MCP endpoint, http://127.0.0.1:PORT/mcp.
func (s *Server) URL() string { return s.url }

// Tools are the tool names offered.
func (s *Server) Tools() []string { return append([]string(nil), s.tools...) }

// Close releases every blocked call as failed ("toolsim: server closed"),
// waits for the tool handlers to return, closes the listener, the HTTP
// connections and the MCP sessions. It returns the calls it released.
// Calling it again does nothing.
func (s *Server) Close() []*Call {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	released := s.releaseLocked(stateClosed, "toolsim: server closed")
	close(s.arrived)
	close(s.cancelled)
	s.mu.Unlock()

	s.handlers.Wait()
	_ = s.http.Close() // errors only repeat the listener's close
	<-s.served
	for ss := range s.mcp.Sessions() {
		_ = ss.Close() // a session closing twice, or a dead peer, is fine here
	}
	s.log.printf("closed released=%d", len(released))
	return released
}

// releaseLocked ends every pending call with state st and a failed
// outcome text, and returns them.
func (s *Server) releaseLocked(st callState, text string) []*Call {
	var out []*Call
	for _, c := range s.calls {
		if c.end(st, Outcome{Text: text}) == nil {
			out = append(out, c)
		}
	}
	return out
}

// observe is the receiving middleware: it logs every method and records
// notifications/cancelled, which the SDK passes on to middleware after its
// jsonrpc2 layer has cancelled the handler's context.
func (s *Server) observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		session := ""
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			session = ss.ID()
		}
		if p, ok := req.GetParams().(*mcp.CancelledParams); ok && method == "notifications/cancelled" {
			s.recordCancel(session, anyIDText(p.RequestID), p.Reason)
		} else {
			s.log.printf("handle session=%s method=%s", session, method)
		}
		return next(ctx, method, req)
	}
}
