package codextui_test

import (
	"testing"

	"github.com/toolsim/toolsim/formats/codextui"
	"github.com/toolsim/toolsim/importer/importertest"
)

// FuzzImport: no input makes the importer panic or emit an invalid trace.
func FuzzImport(f *testing.F) {
	f.Add(op("01", prompt) + "\n" + ev("01", begin) + "\n" + ev("02", `{"type":"exec_command_end","call_id":"c1","exit_code":0,"duration":{"secs":1,"nanos":0}}`) + "\n")
	f.Add(ev("01", `{"type":"exec_command_output_delta","call_id":"c1","chunk":[104,105]}`) + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		importertest.CheckImport(t, codextui.Importer{}, in)
	})
}
