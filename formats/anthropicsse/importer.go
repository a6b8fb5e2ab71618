package anthropicsse

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the anthropic-sse format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "anthropic-sse" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("anthropic-sse: importer not implemented yet")
}
