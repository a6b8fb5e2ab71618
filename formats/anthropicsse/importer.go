package anthropicsse

import (
	"io"

	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/importer"
)

// Name is the format's name.
const Name = "anthropic-sse"

// Importer imports the anthropic-sse format: one Anthropic Messages SSE stream.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return Name }

// Detect implements importer.Importer: an SSE stream whose first
// dialect-specific event is from Anthropic Messages.
func (Importer) Detect(head []byte) bool { return sse.DetectDialect(head) == sse.Anthropic }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return sse.ImportStream(r, opts, Name, sse.Anthropic)
}
