package openaichat

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports the openai-chat-sse format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "openai-chat-sse" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("openai-chat-sse: importer not implemented yet")
}
