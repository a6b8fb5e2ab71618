package view

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/browsertest"
)

// TestHostileTraceRunsNothing: a trace whose ids, names, args, output,
// errors and text carry </script>, event-handler attributes, javascript:
// URLs, U+2028 and links to a server loads in Chromium, shows those
// strings as text, runs none of them, and sends nothing: the server sees
// no request. Markup injected into the page afterwards (as a bug in the
// page's script would) is blocked by its Content-Security-Policy too.
func TestHostileTraceRunsNothing(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	b := browsertest.New(t, 1200, 900)
	evil := func(tag string) string {
		return `</script><script>window.__pwned="` + tag + `"</script><img src="` + srv.URL + `/` + tag +
			`" onerror="window.__pwned='` + tag + `'"><a href="javascript:window.__pwned='` + tag + `'">x</a>` + "\u2028\u2029"
	}
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 1, Kind: event.KindText, Text: evil("text")},
		{Seq: 3, T: 2, Kind: event.KindToolStart, ID: evil("id"), Name: evil("name"),
			Args: []byte(`{"command":"` + strings.ReplaceAll(evil("args"), `"`, `\"`) + `"}`)},
		{Seq: 4, T: 3, Kind: event.KindToolProgress, ID: evil("id"), Output: evil("progress")},
		{Seq: 5, T: 4, Kind: event.KindToolDone, ID: evil("id"), OK: false, Error: evil("error"), Output: evil("output")},
		{Seq: 6, T: 5, Kind: event.KindError, Message: evil("message")},
		{Seq: 7, T: 6, Kind: event.KindTurnEnd},
	}
	var buf bytes.Buffer
	if err := Write(&buf, evs, Options{Title: evil("title")}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "hostile.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Load(page, `body[data-ready="1"]`)
	// Walk the scrubber to the end, so that every render is shown.
	text := browsertest.Eval[string](b, `(s => { s.value = s.max; s.dispatchEvent(new Event("input"));
		return document.getElementById("render").textContent })(document.getElementById("scrub"))`)
	if !strings.Contains(text, "</script><script>") {
		t.Errorf("the hostile text is not shown as text:\n%.400s", text)
	}
	// A bug that let markup in: the policy still blocks its request and
	// its handler, and says so.
	got := browsertest.EvalAwait[string](b, `new Promise(done => {
		const seen = new Set();
		document.addEventListener("securitypolicyviolation", e => {
			seen.add(e.effectiveDirective);
			if (seen.has("img-src") && seen.has("script-src-attr")) done("blocked img-src and script-src-attr");
		});
		document.body.insertAdjacentHTML("beforeend", `+browsertest.String(`<img id="injected" src="`+srv.URL+`/injected" onerror="window.__pwned='injected'">`)+`);
		const img = document.getElementById("injected");
		img.addEventListener("load", () => done("loaded"));
		img.addEventListener("error", () => { if (!seen.size) done("failed to load, with no policy violation"); });
	})`)
	if got != "blocked img-src and script-src-attr" {
		t.Errorf("an injected image and its handler were not blocked by the page's policy: %s", got)
	}
	if got := browsertest.Eval[string](b, `String(window.__pwned)`); got != "undefined" {
		t.Errorf("a script of the trace ran: window.__pwned = %q", got)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the page sent %d requests to %s", n, srv.URL)
	}
	if !strings.Contains(buf.String(), `http-equiv="Content-Security-Policy" content="`+CSP+`"`) {
		t.Error("the page carries no Content-Security-Policy")
	}
}
