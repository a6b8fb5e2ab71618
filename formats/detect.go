package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// BOM is the UTF-8 byte order mark some editors write at the start of a
// file. Detection skips it; callers drop it before importing (SkipBOM).
var BOM = []byte{0xEF, 0xBB, 0xBF}

// MaxDepth is the deepest nesting of arrays and objects detection accepts
// in the first JSON value of a file, as encoding/json does.
const MaxDepth = 10000

// NestingError reports a first JSON value nested deeper than MaxDepth.
type NestingError struct {
	Line int // the line where the value goes past MaxDepth
}

func (e *NestingError) Error() string {
	return fmt.Sprintf("nesting too deep at line %d: a JSON value nested more than %d levels", e.Line, MaxDepth)
}

// checkNesting looks at the first JSON value of head (when head starts with
// one) and returns a *NestingError if it nests deeper than MaxDepth before
// it ends or the head does. Strings are skipped; nothing else is checked.
func checkNesting(head []byte) error {
	i := jsonscan.SkipSpace(head, 0)
	if i >= len(head) || head[i] != '{' && head[i] != '[' {
		return nil
	}
	depth := 0
	for ; i < len(head); i++ {
		switch head[i] {
		case '{', '[':
			if depth++; depth > MaxDepth {
				return &NestingError{Line: bytes.Count(head[:i], []byte{'\n'}) + 1}
			}
		case '}', ']':
			if depth--; depth == 0 {
				return nil
			}
		case '"':
			i = skipString(head, i)
		}
	}
	return nil
}

// skipString returns the index of the quote that closes the string
// opened at head[i] (len(head) if the head ends first).
func skipString(head []byte, i int) int {
	for i++; i < len(head); i++ {
		switch head[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(head)
}

// topMembers reads the members of the JSON object that starts line, with a
// streaming decoder: string values are given as they are, other values as
// "". A line cut off (longer than the head) gives the members read before
// its end; anything that is not an object gives nil.
func topMembers(line []byte) map[string]string {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	members := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			members[key] = "" // cut off inside the value: the key was seen
			break
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			members[key] = s
		} else {
			members[key] = ""
		}
	}
	return members
}

// isCanonical reports whether the first line of head is a toolsim header
// ({"trace": "toolsim/…"}) or an event (with seq and kind), whatever the
// spacing and member order.
func isCanonical(head []byte) bool {
	line := firstLine(head)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	m := topMembers(line)
	if tr, ok := m["trace"]; ok && strings.HasPrefix(tr, "toolsim/") {
		return true
	}
	_, seq := m["seq"]
	_, kind := m["kind"]
	return seq && kind
}
