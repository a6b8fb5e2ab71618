package view_test

import (
	"testing"

	"github.com/toolsim/toolsim/view"
)

func TestPagesNext(t *testing.T) {
	p := view.Pages{Path: "out/fail.html"}
	for _, want := range []string{"out/fail.html", "out/fail-2.html", "out/fail-3.html"} {
		if got := p.Next(); got != want {
			t.Errorf("Next() = %q, want %q", got, want)
		}
	}
}
