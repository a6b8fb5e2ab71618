package gemini_test

import (
	"testing"

	"github.com/toolsim/toolsim/formats/gemini"
	"github.com/toolsim/toolsim/importer/importertest"
)

// FuzzImport: no input makes the importer panic or emit an invalid trace
// (every event valid, seq 1, 2, …, t non-decreasing).
func FuzzImport(f *testing.F) {
	f.Add(doc(user, gem("g1", call("c1", "cancelled", resp("c1", `{"error":"x"}`))+","+call("", "success", `[]`))))
	f.Add("")
	f.Add(jsonl(user, gem("g1", call("c1", "executing", `[]`)), gem("g1", call("c1", "success", resp("c1", `{"output":"x"}`))), `{"$rewindTo":"u1"}`, `{"$set":{"summary":"s"}}`))
	f.Fuzz(func(t *testing.T, in string) {
		importertest.CheckImport(t, gemini.Importer{}, in)
	})
}
