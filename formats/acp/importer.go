package acp

import (
	"bytes"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Importer imports Agent Client Protocol JSON-RPC traffic: raw JSON-RPC
// lines, or transport log lines with a prefix before the message (see the
// package documentation).
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "acp" }

// Detect implements importer.Importer. It accepts a head whose first
// JSON-RPC message from ACP (a session/… method, an fs/ or terminal/
// client method, or an initialize request with clientCapabilities) comes
// before any raw JSON line that is not JSON-RPC. Log lines without a
// message are skipped; plain JSONL of other formats is refused at its
// first line.
func (Importer) Detect(head []byte) bool {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte{'\n'})
		head = rest
		sl := splitLine(line)
		if sl.class != lineJSON {
			continue
		}
		if !bytes.Contains(sl.json, jsonrpcKey) {
			if sl.raw {
				return false // JSONL of another format
			}
			continue
		}
		if acpMessage(sl.json) {
			return true
		}
	}
	return false
}

// acpMessage reports whether a JSON-RPC message uses an ACP method. It
// looks at text only (the head's last line may be cut short).
func acpMessage(msg []byte) bool {
	m := methodOf(msg)
	switch {
	case m == "":
		return false
	case m == "initialize":
		return bytes.Contains(msg, []byte(`"clientCapabilities"`)) || bytes.Contains(msg, []byte(`"agentCapabilities"`))
	case len(m) > 8 && m[:8] == "session/":
		return true
	}
	return clientMethods[m]
}

// methodOf returns the value of the first "method" member in msg, read as
// text: enough for detection.
func methodOf(msg []byte) string {
	i := bytes.Index(msg, []byte(`"method"`))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(msg[i+len(`"method"`):], " \t")
	if len(rest) == 0 || rest[0] != ':' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t")
	if len(rest) == 0 || rest[0] != '"' {
		return ""
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	return string(rest[1 : 1+end])
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := newState(opts)
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, "line longer than the importer accepts: skipped")
	})
	if err != nil {
		return nil, err
	}
	s.finish()
	return s.b.Result(), nil
}
