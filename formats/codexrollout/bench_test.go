package codexrollout_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/toolsim/toolsim/formats/codexrollout"
	"github.com/toolsim/toolsim/importer"
)

// BenchmarkImport imports the real 340 KB rollout sample
// (../shared/traces/codex-rollout/rollout-0.58.jsonl).
func BenchmarkImport(b *testing.B) {
	data, err := os.ReadFile("../../../shared/traces/codex-rollout/rollout-0.58.jsonl")
	if err != nil {
		b.Skipf("sample not found: %v", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := codexrollout.Importer{}.Import(bytes.NewReader(data), importer.Options{})
		if err != nil || len(res.Problems) > 0 || len(res.Events) == 0 {
			b.Fatalf("import: %v %v", err, res.Problems)
		}
	}
}
