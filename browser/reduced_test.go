package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
)

func TestPageLoadsWithReducedMotion(t *testing.T) {
	if ExecPath() == "" {
		t.Skip("chromium not installed: browser test skipped")
	}
	b, err := Start(Options{Page: "testdata/page"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	reduced, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.toolsim.reducedMotion()`))
	if err != nil || !reduced {
		t.Errorf("prefers-reduced-motion: reduce = %v (%v), want true", reduced, err)
	}
}
