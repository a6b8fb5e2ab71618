package sse

import (
	"io"

	"github.com/toolsim/toolsim/importer"
)

// ImportStream imports one SSE stream of a dialect as a trace from the
// named format: the whole Import of the three stream importers.
func ImportStream(r io.Reader, opts importer.Options, format string, d Dialect) (*importer.Result, error) {
	b := importer.NewBuilder(format, opts)
	t := NewTurn(b)
	if err := Decode(r, d, t); err != nil {
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
