package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/harness"
)

// TestPrintViolationsKeepsTheEngineFailure: past the violations shown,
// the count of those left out, and then the engine failure that ended
// the check, if the last one is one (an agent's resume oracle comes
// last, at the end of the stream).
func TestPrintViolationsKeepsTheEngineFailure(t *testing.T) {
	var found []harness.Violation
	for i := range maxShown + 2 {
		found = append(found, harness.Violation{Seq: int64(i + 1), Oracle: harness.OracleModel, Detail: fmt.Sprintf("model difference %d", i+1)})
	}
	for _, tt := range []struct {
		name string
		last harness.Violation
		want bool
	}{
		{"an engine failure last", harness.Violation{Seq: 9, Oracle: harness.OracleEngine, Detail: "resume oracle: the row of call \"a\" is gone"}, true},
		{"another oracle last", harness.Violation{Seq: 9, Oracle: harness.OracleModel, Detail: "resume oracle lookalike"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			c := &cli{stdout: &out}
			c.printViolations(nil, append(found[:len(found):len(found)], tt.last))
			got := out.String()
			if !strings.Contains(got, fmt.Sprintf("… and %d more", 3)) || strings.Contains(got, "model difference 6") {
				t.Errorf("want the first %d shown and the rest counted:\n%s", maxShown, got)
			}
			if strings.Contains(got, tt.last.Detail) != tt.want {
				t.Errorf("last violation %q shown: %v, want %v:\n%s", tt.last.Detail, !tt.want, tt.want, got)
			}
		})
	}
}
