package rebuild

import (
	"bytes"

	"github.com/toolsim/toolsim/store"
)

// plainHead and plainTails frame the headers toolsim's own writer emits
// without faults; plainHeader reads those without encoding/json, which was
// a tenth of rebuilding a short log.
var (
	plainHead  = []byte(`{"log":"` + store.LogVersion + `","t0":"`)
	plainTails = []struct {
		tail   []byte
		writer string
	}{{[]byte(`"}`), ""}, {[]byte(`","writer":"toolsim persist"}`), "toolsim persist"}}
)

// plainHeader decodes line when it is exactly plainHead, a t0 of printable
// ASCII without quotes or backslashes, and one of plainTails: then it is
// valid JSON and decodes as encoding/json would decode it. Any other line
// reports false, for encoding/json to read.
func plainHeader(line []byte) (store.Header, bool) {
	rest, ok := bytes.CutPrefix(line, plainHead)
	if !ok {
		return store.Header{}, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return store.Header{}, false
	}
	for _, c := range rest[:end] {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return store.Header{}, false
		}
	}
	for _, p := range plainTails {
		if bytes.Equal(rest[end:], p.tail) {
			return store.Header{Log: store.LogVersion, T0: string(rest[:end]), Writer: p.writer}, true
		}
	}
	return store.Header{}, false
}
