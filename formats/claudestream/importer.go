package claudestream

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the claude-stream-json format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "claude-stream-json" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("claude-stream-json: importer not implemented yet")
}
