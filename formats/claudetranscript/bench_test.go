package claudetranscript_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolsim/toolsim/formats/claudetranscript"
	"github.com/toolsim/toolsim/importer"
)

// largestSample reads the largest shared transcript sample once.
func largestSample(b *testing.B) []byte {
	b.Helper()
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "claude-transcript", "*.jsonl"))
	var best []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if len(data) > len(best) {
			best = data
		}
	}
	if best == nil {
		b.Skipf("no transcript samples under %s (set TOOLSIM_TRACES)", dir)
	}
	return best
}

// BenchmarkImport imports the largest transcript sample from memory.
func BenchmarkImport(b *testing.B) {
	data := largestSample(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := claudetranscript.Importer{}.Import(bytes.NewReader(data), importer.Options{Name: "bench"})
		if err != nil || len(res.Problems) > 0 {
			b.Fatalf("import: %v %v", err, res.Problems)
		}
	}
}
