package formats

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/acp"
	"github.com/toolsim/toolsim/formats/anthropicsse"
	"github.com/toolsim/toolsim/formats/claudestream"
	"github.com/toolsim/toolsim/formats/claudetranscript"
	"github.com/toolsim/toolsim/formats/codexexec"
	"github.com/toolsim/toolsim/formats/codexrollout"
	"github.com/toolsim/toolsim/formats/codextui"
	"github.com/toolsim/toolsim/formats/gemini"
	"github.com/toolsim/toolsim/formats/openaichat"
	"github.com/toolsim/toolsim/formats/openairesponses"
	"github.com/toolsim/toolsim/formats/opencodeexport"
	"github.com/toolsim/toolsim/formats/vcr"
	"github.com/toolsim/toolsim/importer"
)

// HeadSize is how much of a file detection looks at.
const HeadSize = 64 << 10

// Canonical is the name of toolsim's own trace format.
const Canonical = "toolsim"

// all lists the importers in detection order: the most specific first.
var all = []importer.Importer{
	canonical{},
	vcr.Importer{},
	gemini.Importer{},
	opencodeexport.Importer{},
	acp.Importer{},
	anthropicsse.Importer{},
	openairesponses.Importer{},
	openaichat.Importer{},
	codexexec.Importer{},
	codextui.Importer{},
	codexrollout.Importer{},
	claudetranscript.Importer{},
	claudestream.Importer{},
}

// Names returns the format names --from accepts.
func Names() []string {
	var names []string
	for _, im := range all {
		names = append(names, im.Name())
	}
	return names
}

// ByName returns the importer for a format name.
func ByName(name string) (importer.Importer, error) {
	for _, im := range all {
		if im.Name() == name {
			return im, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q (known: %v)", name, Names())
}

// Detect returns the first importer whose Detect accepts head. A leading
// UTF-8 byte order mark is skipped. When the head starts with a JSON value
// nested deeper than MaxDepth, the error is a *NestingError naming its
// line.
func Detect(head []byte) (importer.Importer, error) {
	head = bytes.TrimPrefix(head, BOM)
	if err := checkNesting(head); err != nil {
		return nil, err
	}
	for _, im := range all {
		if im.Detect(head) {
			return im, nil
		}
	}
	return nil, fmt.Errorf("cannot detect the format (known: %v); name it with --from", Names())
}

// canonical imports toolsim's own format: it is the event reader.
type canonical struct{}

// Name implements importer.Importer.
func (canonical) Name() string { return Canonical }

// Detect accepts a first non-blank line that is a JSON object with a
// "trace" member starting "toolsim/" (a header) or with "seq" and "kind"
// members (an event). The line is parsed, so any JSON spacing and member
// order is recognised.
func (canonical) Detect(head []byte) bool {
	return isCanonical(bytes.TrimPrefix(head, BOM))
}

// Import implements importer.Importer: it reads the trace with
// event.ReadAll (after a byte order mark, if any); a file without a
// header gets the current version's. An unknown kind is a warning to
// opts.Warn, or with opts.Strict an error.
func (canonical) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	h, evs, err := event.ReadAll(SkipBOM(r), readerOptions(opts))
	if err != nil {
		return nil, err
	}
	res := &importer.Result{Events: evs}
	if h != nil {
		res.Header = *h
	} else {
		res.Header = event.Header{Trace: event.Version}
	}
	return res, nil
}

// SkipBOM returns a reader of r without its leading UTF-8 byte order mark,
// if it has one.
func SkipBOM(r io.Reader) io.Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	if head, _ := br.Peek(len(BOM)); bytes.Equal(head, BOM) {
		br.Discard(len(BOM))
	}
	return br
}

// firstLine is the first non-blank line of b, trimmed.
func firstLine(b []byte) []byte {
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line
		}
		b = rest
	}
	return nil
}
