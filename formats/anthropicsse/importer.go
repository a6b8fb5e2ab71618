package anthropicsse

import (
	"io"

	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/sse"
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
	b := importer.NewBuilder(Name, opts)
	t := sse.NewTurn(b)
	if err := sse.Decode(r, sse.Anthropic, t); err != nil {
		return nil, err
	}
	res := b.Result()
	if len(res.Events) == 0 {
		if err := b.Problem(0, "no events: the stream is empty or holds nothing this importer maps"); err != nil {
			return nil, err
		}
	}
	if len(t.Ignored) > 0 {
		b.SetMeta(map[string]any{"ignored": t.Ignored})
	}
	return res, nil
}
