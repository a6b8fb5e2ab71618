package codexrollout_test

import (
	"testing"

	"github.com/toolsim/toolsim/formats/codexrollout"
	"github.com/toolsim/toolsim/importer/importertest"
)

// FuzzImport: no input makes the importer panic or emit an invalid trace
// (every event valid, seq 1, 2, …, t non-decreasing).
func FuzzImport(f *testing.F) {
	f.Add(item("01", prompt) + "\n" + item("02", callLs) + "\n" + evmsg("03", `{"type":"turn_aborted","reason":"interrupted"}`) + "\n" + item("04", outLsOK) + "\n" + item("05", summary) + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		importertest.CheckImport(t, codexrollout.Importer{}, in)
	})
}
