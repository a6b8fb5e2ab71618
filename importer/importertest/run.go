package importertest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/importer"
)

var seqT = regexp.MustCompile(`^\{"seq":\d+,"t":\d+,`)

// Run imports in with imp and returns its events encoded without seq and
// t (so table tests can list them), its problems, and its header meta. It
// fails t if the import fails or the events break any oracle of
// harness.Check.
func Run(t testing.TB, imp importer.Importer, in string) (evs, problems []string, meta string) {
	t.Helper()
	res, err := imp.Import(strings.NewReader(in), importer.Options{Name: "test.sse"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	for i := range res.Events {
		line := event.AppendEvent(nil, &res.Events[i])
		evs = append(evs, seqT.ReplaceAllString(string(line), "{"))
	}
	for _, p := range res.Problems {
		problems = append(problems, p.String())
	}
	for _, v := range harness.Check(func() harness.Engine { return engine.New(engine.Options{}) }, res.Events) {
		t.Errorf("oracle: %s", v)
	}
	return evs, problems, string(res.Header.Meta)
}
