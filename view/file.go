package view

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// WriteFile writes the page of evs to the file path, as Write does.
func WriteFile(path string, evs []event.Event, opts Options) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := Write(w, evs, opts); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// Pages names the pages of several failing traces (toolsim check --html
// FILE): the first is Path, later ones Path with -2, -3, ... before its
// extension.
type Pages struct {
	Path string
	n    int
}

// Next is the path of the next page.
func (p *Pages) Next() string {
	p.n++
	if p.n == 1 {
		return p.Path
	}
	ext := filepath.Ext(p.Path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(p.Path, ext), p.n, ext)
}
