package openaichat

import (
	"io"

	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/importer"
)

// Name is the format's name.
const Name = "openai-chat-sse"

// Importer imports the openai-chat-sse format: one OpenAI Chat Completions SSE stream.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return Name }

// Detect implements importer.Importer: an SSE stream whose first
// dialect-specific event is from OpenAI Chat Completions.
func (Importer) Detect(head []byte) bool { return sse.DetectDialect(head) == sse.OpenAIChat }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return sse.ImportStream(r, opts, Name, sse.OpenAIChat)
}
