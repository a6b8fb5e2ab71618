package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestErrorsAreSeen: an exception thrown by a page's script and a
// console.error are both reported.
func TestErrorsAreSeen(t *testing.T) {
	b := New(t, 800, 600)
	page := filepath.Join(t.TempDir(), "p.html")
	os.WriteFile(page, []byte(`<!DOCTYPE html><body data-ready="1"><script>
console.error("logged", 42);
setTimeout(() => { throw new Error("boom") }, 0);
</script></body>`), 0o644)
	if _, err := run(b, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	// The timer has run once a later evaluation returns.
	if got, err := run(b, chromedp.Evaluate[int](`new Promise(r => setTimeout(() => r(1), 10))`, chromedp.EvalAwaitPromise)); err != nil || got != 1 {
		t.Fatalf("eval = %d, %v", got, err)
	}
	errs := strings.Join(b.Errors(), "\n")
	if !strings.Contains(errs, "boom") || !strings.Contains(errs, "logged") {
		t.Errorf("errors seen: %q", errs)
	}
}
