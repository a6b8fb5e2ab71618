//go:build !unix

package term

import (
	"errors"
	"fmt"
	"os"
)

// Start fails: a pseudo-terminal needs a Unix system.
func Start(o Options) (*Term, error) {
	return nil, fmt.Errorf("term: start %s: pseudo-terminals need a Unix system: %w", o.Path, errors.ErrUnsupported)
}

// killTree is never reached: no Term is started here.
func (t *Term) killTree() error { return errors.ErrUnsupported }

// setSize is never reached: no Term is started here.
func setSize(*os.File, int, int) error { return errors.ErrUnsupported }
