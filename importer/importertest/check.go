// Package importertest holds the checks that the tests of several
// importers (formats/<name>) share. It is test support: only _test.go
// files import it.
package importertest

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Check fails t unless res is a valid canonical trace: every event valid,
// seq 1, 2, …, and t non-decreasing.
func Check(t testing.TB, res *importer.Result) {
	t.Helper()
	var lastT int64
	for i := range res.Events {
		ev := &res.Events[i]
		if err := event.Validate(ev); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if ev.Seq != int64(i+1) || ev.T < lastT {
			t.Fatalf("event %d: seq %d t %d after t %d", i+1, ev.Seq, ev.T, lastT)
		}
		lastT = ev.T
	}
}

// CheckImport is the body of an importer's fuzz target: importing in
// either fails or gives a valid trace (see Check), and a strict import of
// in fails only when the lenient one reported problems.
func CheckImport(t testing.TB, imp importer.Importer, in string) {
	t.Helper()
	res, err := imp.Import(strings.NewReader(in), importer.Options{})
	if err != nil {
		return
	}
	Check(t, res)
	_, serr := imp.Import(strings.NewReader(in), importer.Options{Strict: true})
	if serr != nil && len(res.Problems) == 0 {
		t.Fatalf("strict import failed without problems: %v", serr)
	}
}
