package view

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
)

var (
	//go:embed page.html
	pageBody string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// CSP is the page's Content-Security-Policy: only its own inline script
// and style run (by their SHA-256 hashes), and nothing is fetched, framed
// or submitted. The trace's data is a JSON data block, which no policy
// runs; what the trace holds can therefore never run, even if a string
// of it escaped into the markup. The hashes are of the exact element
// texts Write writes ("\n" and the embedded file).
var CSP = "default-src 'none'; script-src '" + sha256Source("\n"+pageJS) + "'; style-src '" + sha256Source("\n"+pageCSS) +
	"'; img-src 'none'; connect-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'"

// sha256Source is a CSP hash source of s.
func sha256Source(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Options configure a page.
type Options struct {
	Title  string        // what the header names: usually the trace's file name
	Header *event.Header // the trace's header line, when it had one
	Width  int           // render width in cells (default render.DefaultWidth)
	// Failure, when set, marks a failed check on the page.
	Failure *Failure
}

// Failure is a failed check: the violation (its event is marked and the
// scrubber starts there), the command that reproduces it, and the engine
// that failed when it is not the reference one.
type Failure struct {
	Violation harness.Violation
	Reproduce string
	// Engine, when set, is replayed up to the failing event and its render
	// shown beside the reference engine's.
	Engine func() harness.Engine
}

// Write writes the page for a trace's events to w.
func Write(w io.Writer, evs []event.Event, opts Options) error {
	if opts.Width <= 0 {
		opts.Width = render.DefaultWidth
	}
	b := newBuilder(opts.Title, evs, opts.Width, opts.Header.SyntheticClock())
	m := b.build()
	if opts.Header != nil {
		m.Source = Clean(opts.Header.Source)
		if opts.Header.Seed != nil {
			m.Source += " seed " + strconv.FormatInt(*opts.Header.Seed, 10)
		}
	}
	if opts.Failure != nil {
		m.Failure = newFailure(evs, opts.Failure, b.opts)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>toolsim view: %s</title>\n<style>\n%s</style>\n</head>\n<body>\n%s", CSP, html.EscapeString(m.Title), pageCSS, pageBody)
	bw.WriteString(`<script type="application/json" id="data">`)
	// encoding/json escapes <, > and & (and U+2028/9), so the data can
	// never close the script element.
	if err := json.NewEncoder(bw).Encode(m); err != nil {
		return fmt.Errorf("view: encoding the page data: %w", err)
	}
	fmt.Fprintf(bw, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", pageJS)
	return bw.Flush()
}

// newFailure describes a failure, with both renders when an engine other
// than the reference one failed.
func newFailure(evs []event.Event, f *Failure, ropts render.Options) *failure {
	v := f.Violation
	out := &failure{Ev: -1, Seq: v.Seq, Oracle: Clean(v.Oracle), Detail: Clean(v.Detail), Diff: Clean(v.Diff), Reproduce: Clean(f.Reproduce)}
	n := 0 // events up to and including the failing one
	for n < len(evs) && evs[n].Seq <= v.Seq {
		n++
	}
	out.Ev = n - 1
	if f.Engine != nil {
		ref := func() harness.Engine { return engine.New(engine.Options{}) }
		out.Engine = Clean(renderPrefix(f.Engine, evs, n, ropts))
		out.Reference = Clean(renderPrefix(ref, evs, n, ropts))
	}
	return out
}

// renderPrefix renders the timeline of a fresh engine after the first n
// events (after the end-of-stream rule too when n is all of them). An
// engine that panics or reports an error says so instead.
func renderPrefix(newEngine func() harness.Engine, evs []event.Event, n int, ropts render.Options) (out string) {
	e := newEngine()
	defer func() {
		if c, ok := e.(interface{ Close() error }); ok {
			c.Close()
		}
		if r := recover(); r != nil {
			out = fmt.Sprintf("(the engine panicked: %v)\n", r)
		}
	}()
	for i := range evs[:n] {
		e.Apply(&evs[i])
	}
	if n == len(evs) {
		e.Finish()
	}
	if ee, ok := e.(interface{ Err() error }); ok && ee.Err() != nil {
		return fmt.Sprintf("(the engine failed: %v)\n", ee.Err())
	}
	return render.Render(e.Timeline(), ropts)
}
