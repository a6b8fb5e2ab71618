package vcr

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/importer"

	_ "gopkg.in/yaml.v3" // cassettes are YAML; used by the importer
)

// Importer imports the vcr-cassette format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "vcr-cassette" }

// Detect implements importer.Importer.
func (Importer) Detect(head []byte) bool { return false }

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	return nil, errors.New("vcr-cassette: importer not implemented yet")
}
