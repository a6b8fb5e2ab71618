package importertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/importer"
)

// DetectSharedTraces checks imp.Detect against every real sample in the
// folders under dir (README.md files aside), given the first 64 KiB as
// the head: it accepts the samples in the folder named format and no
// other. It skips when dir holds no samples.
func DetectSharedTraces(t testing.TB, imp importer.Importer, dir, format string) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(paths) == 0 {
		t.Skip("shared traces not found")
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "README.md") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Base(filepath.Dir(p)) == format
		if got := imp.Detect(data[:min(len(data), 64<<10)]); got != want {
			t.Errorf("%s: Detect = %v, want %v", p, got, want)
		}
	}
}
