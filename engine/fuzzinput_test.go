package engine_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolsim/toolsim/event"
)

// scenarioFiles returns every file of every scenario script: the seed
// corpus of the engine's fuzz targets.
func scenarioFiles(f *testing.F) [][]byte {
	scripts, _ := filepath.Glob("../scenarios/*.txtar")
	var out [][]byte
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range txtar.Parse(data).Files {
			out = append(out, file.Data)
		}
	}
	return out
}

// looseEvents returns up to max events that data decodes to, skipping the
// lines that do not decode (at most max of those too, so that a reader
// stuck on an error cannot hang a fuzz run).
func looseEvents(data []byte, max int) []event.Event {
	r := event.NewReader(bytes.NewReader(data), event.ReaderOptions{MaxLine: 1 << 16})
	var evs []event.Event
	for bad := 0; len(evs) < max && bad < max; {
		var ev event.Event
		switch err := r.Next(&ev); {
		case err == io.EOF:
			return evs
		case err != nil:
			bad++
		default:
			evs = append(evs, ev)
		}
	}
	return evs
}
