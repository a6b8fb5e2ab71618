package importer

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/event"
)

// Importer turns one source format into a canonical trace.
type Importer interface {
	// Name is the format's name, as --from takes it (e.g. "claude-transcript").
	Name() string
	// Detect reports whether the start of a file (up to 64 KiB) looks like
	// this format. It looks at content, never at a file name.
	Detect(head []byte) bool
	// Import reads a whole source. A problem with one line or record is
	// reported in Result.Problems and the import goes on; with
	// Options.Strict the first problem is returned as an error instead.
	Import(r io.Reader, opts Options) (*Result, error)
}

// Options configure an import.
type Options struct {
	Name string // the source file name, for messages
	// Strict stops at the first problem; a canonical trace's reader also
	// fails at an event of an unknown kind (event.ReaderOptions.StrictKinds).
	Strict bool
	// Warn, when set, is told of what a reader keeps but its author may
	// not have meant: the first event of each unknown kind in a canonical
	// trace (an *event.DecodeError wrapping event.ErrUnknownKind, naming
	// the file, line and kind). Not called with Strict.
	Warn func(error)
	// Stamps, when set, are the arrival times in ms of the source's lines
	// (Stamps[n-1] for line n), as toolsim record captures them. Importers
	// that report their line with Builder.SetLine get them as the clock of
	// records that carry no timestamp of their own.
	Stamps []int64
	// All maps what an importer otherwise keeps out of the main timeline
	// (the vcr importer's side conversations, such as title requests),
	// marked as such, instead of counting it in meta "ignored".
	All bool
}

// Result is an imported trace.
type Result struct {
	Header   event.Header
	Events   []event.Event
	Problems []Problem // what could not be mapped, in line order
}

// Problem is a line or record the importer skipped or could only partly
// map.
type Problem struct {
	Line   int    // 1-based line (or record) number in the source; 0 if none
	Reason string // what was wrong, in words
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.Reason
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Reason)
}

// ErrStrict wraps the first problem of a strict import.
var ErrStrict = errors.New("strict import stopped")

// StrictError is returned by a strict import at its first problem.
type StrictError struct {
	Name    string
	Problem Problem
}

func (e *StrictError) Error() string {
	return fmt.Sprintf("%s:%s", e.Name, e.Problem)
}

// Unwrap makes errors.Is(err, ErrStrict) true.
func (e *StrictError) Unwrap() error { return ErrStrict }

// Lines words problems as toolsim's commands print them: "NAME:PROBLEM",
// one line each, then their count; none for no problem.
func Lines(name string, problems []Problem) []string {
	var lines []string
	for _, p := range problems {
		lines = append(lines, fmt.Sprintf("%s:%s", name, p))
	}
	if len(problems) > 0 {
		lines = append(lines, fmt.Sprintf("%s: %d problems (lines skipped or partly mapped)", name, len(problems)))
	}
	return lines
}
