package claudetranscript

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the claude-transcript format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "claude-transcript" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("claude-transcript: importer not implemented yet")
}
