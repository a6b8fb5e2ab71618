package claudetranscript

import (
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// str decodes a validated JSON string value; other values give "".
func str(val []byte) string {
	s, _ := jsonscan.String(val)
	return s
}

// isTrue reports whether val is the literal true.
func isTrue(val []byte) bool { return string(val) == "true" }

// isNull reports whether val is the literal null.
func isNull(val []byte) bool { return string(val) == "null" }

// integer decodes a non-negative integral number value.
func integer(val []byte) (int64, bool) {
	if len(val) == 0 || val[0] < '0' || val[0] > '9' {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(val), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil || f < 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}
