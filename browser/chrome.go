package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/toolsim/toolsim/internal/chromium"
)

// ErrNoChromium is returned by Start when no Chromium is installed.
var ErrNoChromium = errors.New("chromium not found (install chromium, or set $CHROMIUM to its path)")

// callTimeout bounds one call into the page: a hung page fails the engine
// instead of hanging toolsim (not a speed check).
const callTimeout = time.Minute

// Options choose the page and the browser.
type Options struct {
	Page     string // directory with index.html
	Query    string // appended to the page's URL after "?" (for example bug=NAME)
	Chromium string // the browser's path; empty: $CHROMIUM, else chromium and its usual names on PATH
}

// Browser is one headless Chromium with the page loaded in one tab.
type Browser struct {
	ctx    context.Context
	cancel func()
	mu     sync.Mutex
	errs   []string // uncaught exceptions and console errors not yet taken
}

// ExecPath finds Chromium: $CHROMIUM, else the usual names on PATH; ""
// when there is none.
func ExecPath() string { return chromium.Path() }

// Start starts Chromium and loads the page with reduced motion.
func Start(opts Options) (*Browser, error) {
	path := opts.Chromium
	if path == "" {
		path = ExecPath()
	}
	if path == "" {
		return nil, ErrNoChromium
	}
	index, err := filepath.Abs(filepath.Join(opts.Page, "index.html"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(index); err != nil {
		return nil, fmt.Errorf("page %s: %w (build it first)", opts.Page, err)
	}
	aopts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("allow-file-access-from-files", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), aopts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	b := &Browser{ctx: ctx, cancel: func() { cancelCtx(); cancelAlloc() }}
	if err := b.load(index, opts.Query); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// load opens the page and waits for its contract.
func (b *Browser) load(index, query string) error {
	if _, err := chromedp.Run(b.ctx, chromedp.Func(func(context.Context, *chromedp.Target) error { return nil })); err != nil {
		return fmt.Errorf("starting chromium: %w", err)
	}
	if err := chromedp.Listen(b.ctx, b.listen); err != nil {
		return err
	}
	media := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, media); err != nil {
		return fmt.Errorf("reduced motion: %w", err)
	}
	u := url.URL{Scheme: "file", Path: index, RawQuery: query}
	ctx, cancel := context.WithTimeout(b.ctx, callTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate(u.String())); err != nil {
		return fmt.Errorf("loading %s: %w", u.String(), err)
	}
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.toolsim === "object" && typeof window.toolsim.apply === "function"`))
	if err != nil {
		return fmt.Errorf("loading %s: %w", u.String(), err)
	}
	if !ok {
		return fmt.Errorf("page %s defines no window.toolsim with apply (the page contract, package browser)%s", u.String(), b.problems())
	}
	return b.Err()
}

func (b *Browser) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		b.note("uncaught exception: " + text)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, argText(a))
			}
			b.note("console.error: " + strings.Join(args, " "))
		}
	}
}

// argText is a console argument as the console would print it.
func argText(a *runtime.RemoteObject) string {
	var s string
	if json.Unmarshal(a.Value, &s) == nil {
		return s
	}
	if len(a.Value) > 0 {
		return string(a.Value)
	}
	return a.Description
}

func (b *Browser) note(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs = append(b.errs, s)
}

// Err returns the page's uncaught exceptions and console errors since the
// last call, as one error (nil when there were none), and forgets them.
func (b *Browser) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errs) == 0 {
		return nil
	}
	err := fmt.Errorf("page error: %s", strings.Join(b.errs, "; "))
	b.errs = nil
	return err
}

// problems words the pending errors as a suffix for another message.
func (b *Browser) problems() string {
	if err := b.Err(); err != nil {
		return ": " + err.Error()
	}
	return ""
}

// Close stops the browser.
func (b *Browser) Close() { b.cancel() }

// call evaluates window.toolsim.METHOD(ARG) in the page, waits for it to
// settle, and returns the rows the page shows then (or, for rebuild, the
// rows of the rebuilt page).
func (b *Browser) call(method, arg string) ([]Row, error) {
	ctx, cancel := context.WithTimeout(b.ctx, callTimeout)
	defer cancel()
	expr := fmt.Sprintf(`Promise.resolve(window.toolsim.%s(%s)).then((r) => JSON.stringify(%s))`, method, arg, rowsOf(method))
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("page %s: %w%s", method, err, b.problems())
	}
	var rows []Row
	if err := json.Unmarshal([]byte(text), &rows); err != nil {
		return nil, fmt.Errorf("page %s: rows: %w", method, err)
	}
	return rows, b.Err()
}

// rowsOf is the expression of a call's rows: rebuild returns them, the
// others leave them to rows().
func rowsOf(method string) string {
	if method == "rebuild" {
		return "r"
	}
	return "window.toolsim.rows()"
}
