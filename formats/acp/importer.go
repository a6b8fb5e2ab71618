package acp

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"

	_ "github.com/coder/acp-go-sdk" // ACP types; used by the importer
)

// Importer imports the acp format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "acp" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("acp: importer not implemented yet")
}
