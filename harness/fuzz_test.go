package harness_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
)

func TestFuzzReferenceIsClean(t *testing.T) {
	harness.Fuzz(t, reference, harness.Seeds(300), harness.Workers(2))
}

// fakeTB records a fatal message; Fatal/Fatalf unwind with a sentinel.
type fakeTB struct {
	testing.TB
	msg string
}

type fatal struct{}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	panic(fatal{})
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(fatal{})
}

func runFuzz(newEngine func() harness.Engine, opts ...harness.FuzzOption) (msg string) {
	tb := &fakeTB{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatal); !ok {
				panic(r)
			}
			msg = tb.msg
		}
	}()
	harness.Fuzz(tb, newEngine, opts...)
	return ""
}

// TestFuzzReportsShrunkFailure: a planted bug fails Fuzz with the seed, the
// oracle, the shrunk trace and the reproduce command.
func TestFuzzReportsShrunkFailure(t *testing.T) {
	msg := runFuzz(cancelLeavesSpinner, harness.Seeds(200))
	for _, want := range []string{"seed ", "after seq", "shrunk ", `"kind":"cancel"`, "reproduce the scenario: toolsim sim --seed "} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
}

func TestFuzzFailsOnUntestedFaults(t *testing.T) {
	msg := runFuzz(reference, harness.Seeds(2), harness.Faults(fault.All()...))
	if !strings.Contains(msg, "never injected") {
		t.Errorf("want a coverage failure, got %q", msg)
	}
}
