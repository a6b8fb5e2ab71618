package acp_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/toolsim/toolsim/formats/acp"
	"github.com/toolsim/toolsim/importer"
)

// BenchmarkImport imports the JetBrains transport sample; the MB/s column
// is the import throughput on real traffic (mostly message chunks).
func BenchmarkImport(b *testing.B) {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	data, err := os.ReadFile(dir + "/acp/jetbrains-transport.log")
	if err != nil {
		b.Skipf("sample not available: %v", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := acp.Importer{}.Import(bytes.NewReader(data), importer.Options{Name: "bench"})
		if err != nil || len(res.Problems) > 0 {
			b.Fatalf("import: %v %v", err, res.Problems)
		}
	}
}
