package codexrollout

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the codex-rollout format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-rollout" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("codex-rollout: importer not implemented yet")
}
