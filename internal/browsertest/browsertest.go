package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/toolsim/toolsim/internal/chromium"
)

// Browser is one headless Chromium with one tab.
type Browser struct {
	t      testing.TB
	ctx    context.Context
	mu     sync.Mutex
	errors []string // uncaught exceptions and console errors
}

// New starts a browser with a window of w×h pixels, or skips the test
// when Chromium is not installed. It is stopped when the test ends.
func New(t testing.TB, w, h int) *Browser {
	t.Helper()
	path := chromium.Path()
	if path == "" {
		t.Skip("chromium not installed (apt-get install -y chromium, or set $CHROMIUM): browser test skipped")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in CI containers
		chromedp.WindowSize(w, h),
		chromedp.Flag("hide-scrollbars", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	b := &Browser{t: t, ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.note("uncaught: " + ev.ExceptionDetails.Text + " " + exceptionText(ev.ExceptionDetails))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value))
				}
				b.note("console.error: " + strings.Join(args, " "))
			}
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return b
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// run runs one action with a bound on a hung browser (not a speed check).
func run[T any](b *Browser, a chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	return chromedp.Run(ctx, a)
}

func (b *Browser) note(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = append(b.errors, s)
}

// Load opens a local file and waits until ready (a CSS selector) is in
// the page. Any script error so far fails the test.
func (b *Browser) Load(path, ready string) {
	b.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		b.t.Fatal(err)
	}
	u := url.URL{Scheme: "file", Path: abs}
	if _, err := run(b, chromedp.Steps(chromedp.Navigate(u.String()), chromedp.WaitReady(chromedp.CSS(ready)))); err != nil {
		b.CheckErrors()
		b.t.Fatalf("loading %s: %v", path, err)
	}
	b.CheckErrors()
}

// CheckErrors fails the test if the page threw or logged an error.
func (b *Browser) CheckErrors() {
	b.t.Helper()
	for _, e := range b.Errors() {
		b.t.Errorf("page script error: %s", e)
	}
}

// Errors returns the uncaught exceptions and console errors seen since the
// last call, and forgets them.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs := b.errors
	b.errors = nil
	return errs
}

// Eval evaluates a JavaScript expression in the page and returns its value
// decoded as T.
func Eval[T any](b *Browser, expr string) T {
	b.t.Helper()
	return eval[T](b, expr)
}

// EvalAwait evaluates a JavaScript expression whose value is a promise,
// waits for it to settle, and returns its value decoded as T.
func EvalAwait[T any](b *Browser, expr string) T {
	b.t.Helper()
	return eval[T](b, expr, chromedp.EvalAwaitPromise)
}

func eval[T any](b *Browser, expr string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	v, err := run(b, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	b.CheckErrors()
	return v
}

// Click clicks the first visible element matching a CSS selector.
func (b *Browser) Click(sel string) {
	b.t.Helper()
	if _, err := run(b, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		b.t.Fatalf("clicking %s: %v", sel, err)
	}
	b.CheckErrors()
}

// Screenshot saves a PNG of the viewport to path and returns its size in
// bytes.
func (b *Browser) Screenshot(path string) int {
	b.t.Helper()
	png, err := run(b, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return len(png)
}

// String is a JavaScript string literal for s.
func String(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("browsertest: %v", err)) // a string always encodes
	}
	return string(b)
}
