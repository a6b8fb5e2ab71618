package apicheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/internal/apicheck"
)

// UpdateEnv rewrites api/toolsim.txt instead of comparing with it.
const UpdateEnv = "TOOLSIM_API_UPDATE"

const apiFile = "../../api/toolsim.txt"

// TestAPI fails when the exported API differs from api/toolsim.txt.
func TestAPI(t *testing.T) {
	got, err := apicheck.API(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(got, "\n") + "\n"
	if os.Getenv(UpdateEnv) != "" {
		if err := os.WriteFile(apiFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(apiFile)
	if err != nil {
		t.Fatalf("%v\nwrite it with: %s=1 go test ./internal/apicheck", err, UpdateEnv)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var diff []string
	for _, l := range want {
		if _, found := slices.BinarySearch(got, l); !found {
			diff = append(diff, "- "+l)
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			diff = append(diff, "+ "+l)
		}
	}
	if len(diff) > 0 {
		t.Errorf("the public API differs from api/toolsim.txt (-file +source):\n%s\n\n"+
			"If the change is deliberate, review it and regenerate the file:\n\t%s=1 go test ./internal/apicheck",
			strings.Join(diff, "\n"), UpdateEnv)
	}
}

// TestAPISkipsPrivate checks the walk itself: no internal, cmd, example
// or test-only names, and the names every engine author uses are there.
func TestAPISkipsPrivate(t *testing.T) {
	got, err := apicheck.API(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range got {
		for _, bad := range []string{"/internal", "/cmd/", "/examples/", "_test,"} {
			if strings.Contains(l, bad) {
				t.Errorf("private name listed: %s", l)
			}
		}
	}
	for _, want := range []string{
		"pkg github.com/toolsim/toolsim/harness/campaign, func Fuzz(testing.TB, func() harness.Engine, ...FuzzOption)",
		"pkg github.com/toolsim/toolsim/harness, type Engine = engineproto.Engine",
		"pkg github.com/toolsim/toolsim/event, type Event struct, Seq int64",
		"pkg github.com/toolsim/toolsim/event, method (*Reader) Next(*Event) error",
		"pkg github.com/toolsim/toolsim/timeline, const StatusOK Status",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing: %s", want)
		}
	}
}
