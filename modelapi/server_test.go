package modelapi_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/vcr"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/modelapi"
)

// bound is how long a test waits for something that must happen.
const bound = 20 * time.Second

func start(t *testing.T, o modelapi.Options) *modelapi.Server {
	t.Helper()
	s, err := modelapi.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// result is a client's view of one exchange.
type result struct {
	status int
	header http.Header
	body   []byte
	err    error
}

// send posts body to url with method in the background; header: extra
// request headers.
func send(ctx context.Context, method, url, body string, header ...string) <-chan result {
	ch := make(chan result, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		if err != nil {
			ch <- result{err: err}
			return
		}
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		ch <- result{status: resp.StatusCode, header: resp.Header, body: b, err: err}
	}()
	return ch
}

func await(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("client: %v", r.err)
		}
		return r
	case <-time.After(bound):
		t.Fatalf("no answer within %s", bound)
	}
	return result{}
}

func next(t *testing.T, s *modelapi.Server) *modelapi.Pending {
	t.Helper()
	p, err := s.Next(bound)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// importAnswer imports an answer of dialect d to url through formats/vcr,
// in a cassette of one interaction whose request is d's one user message
// (the real request's history would add turns before the answer's).
func importAnswer(t *testing.T, d modelapi.Dialect, url string, res result) []ev {
	t.Helper()
	c := map[string]any{"version": 2, "interactions": []any{map[string]any{
		"request":  map[string]any{"body": userRequests[d][1], "url": url, "method": "POST"},
		"response": map[string]any{"body": string(res.body), "code": res.status},
	}}}
	y, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	im, err := vcr.Importer{}.Import(bytes.NewReader(y), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Problems) > 0 {
		t.Errorf("import problems: %v\nbody: %s", im.Problems, res.body)
	}
	return project(t, im.Events)
}

// mainRequests are main requests (tools offered, streamed) per dialect,
// with the path they go to and the response id the first request gets.
var mainRequests = []struct {
	d          modelapi.Dialect
	path, body string
	respID     string
}{
	{modelapi.Responses, "/v1/responses", codexMain, "resp_toolsim_1"},
	{modelapi.Chat, "/v1/chat/completions", opencodeMain, "chatcmpl-toolsim-1"},
	{modelapi.Anthropic, "/v1/messages?beta=true", claudeMain, "msg_toolsim_1"},
	{modelapi.Gemini, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", geminiMain, "toolsim-1"},
}

// TestMainRequestWaitsForRespond: a main request reaches Next and gets
// nothing until Respond; then its stream carries the reply (imported
// back), and the record holds the reply with its ids.
func TestMainRequestWaitsForRespond(t *testing.T) {
	for _, mr := range mainRequests {
		t.Run(string(mr.d), func(t *testing.T) {
			s := start(t, modelapi.Options{})
			ch := send(context.Background(), "POST", s.URL()+mr.path, mr.body)
			p := next(t, s)
			if p.Request.Kind != modelapi.Main || p.Request.Dialect != mr.d || p.Request.Seq != 1 {
				t.Fatalf("pending request: kind %s dialect %s seq %d", p.Request.Kind, p.Request.Dialect, p.Request.Seq)
			}
			select {
			case r := <-ch:
				t.Fatalf("the client got an answer before Respond: %d %s", r.status, r.body)
			default:
			}
			reply := modelapi.Reply{Text: "Looking.", Calls: []modelapi.Call{
				{ID: "c1", Name: "read", Args: raw(`{"path":"a.go"}`)}, {Name: "bash", Namespace: "mcp__x"}}}
			if err := p.Respond(reply); err != nil {
				t.Fatal(err)
			}
			res := await(t, ch)
			if ct := res.header.Get("Content-Type"); res.status != 200 || ct != "text/event-stream" {
				t.Fatalf("answer: %d %s", res.status, ct)
			}
			want := wantEvents(t, mr.d, reply, mr.respID)
			if diff := cmp.Diff(want, importAnswer(t, mr.d, s.URL()+mr.path, res)); diff != "" {
				t.Errorf("answer events (-want +got):\n%s\nbody:\n%s", diff, res.body)
			}
			rec := s.Requests()[0]
			sent := reply.WithIDs(mr.d, mr.respID)
			if rec.Status != 200 || rec.Gone || rec.TimedOut || !cmp.Equal(rec.Reply, &sent) {
				t.Errorf("record: status %d gone %t timed out %t reply %+v, want 200 and %+v", rec.Status, rec.Gone, rec.TimedOut, rec.Reply, sent)
			}
			if err := p.Respond(reply); !errors.Is(err, modelapi.ErrAnswered) {
				t.Errorf("second Respond: %v, want ErrAnswered", err)
			}
		})
	}
}

// TestSideRequestsAnsweredAutomatically: requests that offer no tools are
// answered at once, JSON for a schema, and never reach Next.
func TestSideRequestsAnsweredAutomatically(t *testing.T) {
	tests := []struct {
		d                      modelapi.Dialect
		name, path, body, text string
	}{
		{modelapi.Responses, "codex title, streamed, JSON", "/v1/responses", codexTitle, `{"title":"toolsim"}`},
		{modelapi.Anthropic, "claude code quota probe, not streamed", "/v1/messages", `{"model":"claude-haiku-4-5","max_tokens":1,"messages":[{"role":"user","content":"quota"}]}`, "toolsim"},
		{modelapi.Anthropic, "claude code title, JSON", "/v1/messages", claudeTitle, `{"title":"toolsim"}`},
		{modelapi.Chat, "opencode title, streamed", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"Generate a title"}]}`, "toolsim"},
		{modelapi.Gemini, "gemini next speaker, generateContent", "/v1beta/models/gemini-2.5-flash:generateContent", geminiNextSpeaker, `{"next_speaker":"user","reasoning":"toolsim"}`},
		{modelapi.Gemini, "gemini streamed without alt=sse: a JSON array", "/v1beta/models/m:streamGenerateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "toolsim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, modelapi.Options{})
			res := await(t, send(context.Background(), "POST", s.URL()+tt.path, tt.body))
			want := []ev{{Kind: event.KindTurnStart, Role: event.RoleAssistant}, {Kind: event.KindText, Text: tt.text}, {Kind: event.KindTurnEnd}}
			if diff := cmp.Diff(want, importAnswer(t, tt.d, s.URL()+tt.path, res)); diff != "" {
				t.Errorf("answer events (-want +got):\n%s\nbody: %s", diff, res.body)
			}
			recs := s.Requests()
			if len(recs) != 1 || recs[0].Kind != modelapi.Side || recs[0].Status != 200 || recs[0].Reply == nil || recs[0].Reply.Text != tt.text {
				t.Errorf("records: %+v", recs)
			}
			if _, err := s.Next(10 * time.Millisecond); !errors.Is(err, modelapi.ErrNoRequest) {
				t.Errorf("Next: %v, want ErrNoRequest", err)
			}
		})
	}
}

// TestClientGone: a client that cancels before the answer makes Respond
// fail with ErrGone, and the request stays recorded as gone.
func TestClientGone(t *testing.T) {
	s := start(t, modelapi.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ch := send(ctx, "POST", s.URL()+"/v1/messages", claudeMain)
	p := next(t, s)
	cancel()
	if r := <-ch; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("client: %v, want context.Canceled", r.err)
	}
	select {
	case <-p.Done():
	case <-time.After(bound):
		t.Fatal("the server did not notice the client went away")
	}
	err := p.Respond(modelapi.Reply{Text: "late"})
	if !errors.Is(err, modelapi.ErrGone) {
		t.Fatalf("Respond: %v, want ErrGone", err)
	}
	if !strings.Contains(err.Error(), "request 1 (POST /v1/messages)") {
		t.Errorf("Respond error %q does not name the request", err)
	}
	recs := s.Requests()
	if len(recs) != 1 || !recs[0].Gone || recs[0].Status != 0 || recs[0].Reply != nil {
		t.Errorf("record: %+v, want gone, unanswered", recs[0])
	}
}

// TestRefusedRequests: bad JSON is a 400 in the dialect's error shape, an
// unknown path a 404, token counts an estimate; all are recorded.
func TestRefusedRequests(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		status                   int
		kind                     modelapi.Kind
		answer                   string // a substring of the body
	}{
		{"bad JSON", "POST", "/v1/messages", `{"messages": [`, 400, modelapi.BadRequest,
			`{"type":"error","error":{"type":"invalid_request_error","message":"anthropic request body: unexpected end of JSON input"}}`},
		{"bad JSON, gemini shape", "POST", "/v1beta/models/m:streamGenerateContent?alt=sse", `nope`, 400, modelapi.BadRequest,
			`{"error":{"code":400,"message":"gemini request body: invalid character`},
		{"a models probe", "GET", "/v1/models", "", 404, modelapi.NotFound,
			`{"type":"error","error":{"type":"not_found_error","message":"toolsim serves no model API at GET /v1/models"}}`},
		{"claude count_tokens", "POST", "/v1/messages/count_tokens", claudeTitle, 200, modelapi.CountTokens, `{"input_tokens":`},
		{"gemini countTokens", "POST", "/v1beta/models/m:countTokens", `{"contents":[]}`, 200, modelapi.CountTokens, `{"totalTokens":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, modelapi.Options{})
			res := await(t, send(context.Background(), tt.method, s.URL()+tt.path, tt.body))
			if res.status != tt.status || !strings.Contains(string(res.body), tt.answer) {
				t.Errorf("answer %d %s, want %d with %s", res.status, res.body, tt.status, tt.answer)
			}
			if !json.Valid(res.body) {
				t.Errorf("answer is not JSON: %s", res.body)
			}
			recs := s.Requests()
			if len(recs) != 1 || recs[0].Kind != tt.kind || recs[0].Status != tt.status || string(recs[0].Body) != tt.body {
				t.Errorf("records: %+v", recs)
			}
			if (tt.kind == modelapi.BadRequest) != (recs[0].Err != nil) {
				t.Errorf("Err = %v for kind %s", recs[0].Err, tt.kind)
			}
		})
	}
}

// TestTimeout: a main request nobody answers gets HTTP 500 in its
// dialect's shape after Options.Timeout, is recorded as timed out, and
// Next no longer returns it.
func TestTimeout(t *testing.T) {
	s := start(t, modelapi.Options{Timeout: time.Millisecond})
	res := await(t, send(context.Background(), "POST", s.URL()+"/v1/chat/completions", opencodeMain))
	if res.status != 500 || !strings.Contains(string(res.body), `"message":"toolsim: no answer within 1ms","type":"server_error"`) {
		t.Errorf("answer %d %s", res.status, res.body)
	}
	recs := s.Requests()
	if len(recs) != 1 || !recs[0].TimedOut || recs[0].Status != 500 {
		t.Errorf("records: %+v", recs)
	}
	if _, err := s.Next(10 * time.Millisecond); !errors.Is(err, modelapi.ErrNoRequest) {
		t.Errorf("Next: %v, want ErrNoRequest", err)
	}
}

// TestRespondPartial: text streamed before the final Respond reaches the
// client at once, and the whole stream reads as one reply.
func TestRespondPartial(t *testing.T) {
	s := start(t, modelapi.Options{})
	type opened struct {
		resp *http.Response
		err  error
	}
	ch := make(chan opened, 1)
	go func() {
		resp, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(claudeMain))
		ch <- opened{resp, err}
	}()
	p := next(t, s)
	if err := p.RespondPartial("Hel"); err != nil {
		t.Fatal(err)
	}
	o := <-ch
	if o.err != nil {
		t.Fatal(o.err)
	}
	defer o.resp.Body.Close()
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(o.resp.Body, &got))
	for !strings.Contains(got.String(), `"text":"Hel"`) {
		if _, err := br.ReadString('\n'); err != nil {
			t.Fatalf("reading the partial stream: %v (got %s)", err, got.String())
		}
	}
	reply := modelapi.Reply{Text: "lo", Calls: []modelapi.Call{{ID: "t1", Name: "Bash"}}}
	if err := p.Respond(reply); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Fatal(err)
	}
	want := wantEvents(t, modelapi.Anthropic, modelapi.Reply{Text: "Hello", Calls: reply.Calls}, "msg_toolsim_1")
	res := result{status: 200, body: got.Bytes()}
	if diff := cmp.Diff(want, importAnswer(t, modelapi.Anthropic, s.URL()+"/v1/messages", res)); diff != "" {
		t.Errorf("events (-want +got):\n%s\nbody:\n%s", diff, got.String())
	}
}

// TestErrorReply: Respond with a Status answers that HTTP error.
func TestErrorReply(t *testing.T) {
	s := start(t, modelapi.Options{})
	ch := send(context.Background(), "POST", s.URL()+"/v1/messages", claudeMain)
	if err := next(t, s).Respond(modelapi.Reply{Status: 529}); err != nil {
		t.Fatal(err)
	}
	res := await(t, ch)
	want := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	if res.status != 529 || string(res.body) != want {
		t.Errorf("answer %d %s, want 529 %s", res.status, res.body, want)
	}
	if rec := s.Requests()[0]; rec.Status != 529 {
		t.Errorf("record status %d", rec.Status)
	}
}

// TestRespondRejectsBadReply: an invalid reply is an error and the
// request keeps waiting for a good one.
func TestRespondRejectsBadReply(t *testing.T) {
	s := start(t, modelapi.Options{})
	ch := send(context.Background(), "POST", s.URL()+"/v1/chat/completions", opencodeMain)
	p := next(t, s)
	if err := p.Respond(modelapi.Reply{Calls: []modelapi.Call{{Name: "read", Args: raw(`"x"`)}}}); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("Respond: %v, want an args error", err)
	}
	if err := p.Respond(modelapi.Reply{Text: "ok"}); err != nil {
		t.Fatal(err)
	}
	if res := await(t, ch); res.status != 200 || !strings.Contains(string(res.body), `"content":"ok"`) {
		t.Errorf("answer %d %s", res.status, res.body)
	}
}

// lineWaiter is a log writer that tells when a line containing want was
// written.
type lineWaiter struct {
	mu   sync.Mutex
	want string
	seen chan struct{}
	log  bytes.Buffer
}

func (w *lineWaiter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log.Write(b)
	if w.want != "" && strings.Contains(string(b), w.want) {
		w.want = ""
		close(w.seen)
	}
	return len(b), nil
}

// TestConcurrentAndReset: side requests are answered while a main
// request waits; Requests lists all in arrival order; Reset forgets
// them and drops a request Next has not taken.
func TestConcurrentAndReset(t *testing.T) {
	lw := &lineWaiter{want: "#1 waits for the controller", seen: make(chan struct{})}
	s := start(t, modelapi.Options{Log: lw})
	mainCh := send(context.Background(), "POST", s.URL()+"/v1/responses", codexMain)
	<-lw.seen
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := <-send(context.Background(), "POST", s.URL()+"/v1/responses", codexTitle); r.err != nil || r.status != 200 {
				t.Errorf("side request: %v %d", r.err, r.status)
			}
		}()
	}
	wg.Wait()
	recs := s.Requests()
	var kinds []modelapi.Kind
	for i, r := range recs {
		kinds = append(kinds, r.Kind)
		if r.Seq != i+1 {
			t.Errorf("record %d has Seq %d", i, r.Seq)
		}
	}
	want := []modelapi.Kind{modelapi.Main, modelapi.Side, modelapi.Side, modelapi.Side, modelapi.Side, modelapi.Side}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	s.Reset()
	if res := await(t, mainCh); res.status != 500 || !strings.Contains(string(res.body), "dropped (Reset)") {
		t.Errorf("dropped request's answer: %d %s", res.status, res.body)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d records after Reset", n)
	}
	res := await(t, send(context.Background(), "POST", s.URL()+"/v1/responses", codexTitle))
	if recs := s.Requests(); res.status != 200 || len(recs) != 1 || recs[0].Seq != 7 {
		t.Errorf("after Reset: %d, records %+v (want one, Seq 7)", res.status, recs)
	}
	if !strings.Contains(lw.log.String(), "modelapi: #2 POST /v1/responses: responses side") {
		t.Errorf("log lacks the side request:\n%s", lw.log.String())
	}
}

// TestGzipBody: a gzip-encoded body is inflated; another encoding is a
// bad request naming it.
func TestGzipBody(t *testing.T) {
	s := start(t, modelapi.Options{})
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	fmt.Fprint(zw, codexTitle)
	zw.Close()
	res := await(t, send(context.Background(), "POST", s.URL()+"/v1/responses", z.String(), "Content-Encoding", "gzip"))
	res2 := await(t, send(context.Background(), "POST", s.URL()+"/v1/responses", "x", "Content-Encoding", "zstd"))
	recs := s.Requests()
	if res.status != 200 || recs[0].LastUser != "Generate a title" {
		t.Errorf("gzip: %d, record %+v", res.status, recs[0])
	}
	if res2.status != 400 || recs[1].Err == nil || !strings.Contains(recs[1].Err.Error(), `content encoding "zstd" not supported`) {
		t.Errorf("zstd: %d, record %+v", res2.status, recs[1])
	}
}

// TestClose: Close ends a waiting Next and drops waiting requests.
func TestClose(t *testing.T) {
	s, err := modelapi.Start(modelapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ch := send(context.Background(), "POST", s.URL()+"/v1/messages", claudeMain)
	p := next(t, s)
	s.Close()
	if err := p.Respond(modelapi.Reply{Text: "x"}); !errors.Is(err, modelapi.ErrClosed) && !errors.Is(err, modelapi.ErrGone) {
		t.Errorf("Respond after Close: %v, want ErrClosed or ErrGone", err)
	}
	if _, err := s.Next(bound); !errors.Is(err, modelapi.ErrClosed) {
		t.Errorf("Next after Close: %v, want ErrClosed", err)
	}
	<-ch
}

// TestMainRequestNotStreamed: a main request with stream off gets the
// whole JSON response; a partial answer to it is refused.
func TestMainRequestNotStreamed(t *testing.T) {
	s := start(t, modelapi.Options{})
	path := "/v1beta/models/gemini-2.5-pro:generateContent"
	ch := send(context.Background(), "POST", s.URL()+path, geminiMain)
	p := next(t, s)
	if err := p.RespondPartial("x"); err == nil || !strings.Contains(err.Error(), "not streamed") {
		t.Errorf("RespondPartial: %v, want a not-streamed error", err)
	}
	reply := modelapi.Reply{Calls: []modelapi.Call{{Name: "read_file", Args: raw(`{"absolute_path":"/b.go"}`)}}}
	if err := p.Respond(reply); err != nil {
		t.Fatal(err)
	}
	res := await(t, ch)
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if diff := cmp.Diff(wantEvents(t, modelapi.Gemini, reply, "toolsim-1"), importAnswer(t, modelapi.Gemini, s.URL()+path, res)); diff != "" {
		t.Errorf("events (-want +got):\n%s\nbody: %s", diff, res.body)
	}
}
