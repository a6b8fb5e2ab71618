package codexexec_test

import (
	"testing"

	"github.com/toolsim/toolsim/formats/codexexec"
	"github.com/toolsim/toolsim/importer/importertest"
)

// FuzzImport: no input makes the importer panic or emit an invalid trace
// (every event valid, seq 1, 2, …, t non-decreasing).
func FuzzImport(f *testing.F) {
	f.Add(thread + "\n" + started + "\n" + cmdStart + "\n" + `{"type":"item.updated","item":{"id":"item_1","type":"command_execution","aggregated_output":"a"}}` + "\n" + complete + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		importertest.CheckImport(t, codexexec.Importer{}, in)
	})
}
