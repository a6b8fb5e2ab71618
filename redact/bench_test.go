package redact_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/toolsim/toolsim/redact"
)

// BenchmarkLargestSharedTrace: redact every line of the largest shared
// real trace (a 342 KB Codex rollout) as redact --check and record read
// them, a JSON line's strings unescaped; MB/s of the file.
func BenchmarkLargestSharedTrace(b *testing.B) {
	const path = "../../shared/traces/codex-rollout/rollout-0.58.jsonl"
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("%s not found: %v", path, err)
	}
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := redact.New()
		for _, l := range lines {
			if json.Valid(l) {
				r.JSON(l)
			} else {
				r.String(string(l))
			}
		}
	}
}

// BenchmarkCompileRules: what the first redaction of a process pays to
// compile the rule set.
func BenchmarkCompileRules(b *testing.B) {
	for b.Loop() {
		redact.CompileRules()
	}
}
