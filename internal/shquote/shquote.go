// Package shquote quotes words for a POSIX shell command line, so that a
// printed reproduce command can be pasted as it is.
package shquote

import "strings"

// Quote returns s as one shell word: unchanged when it holds only
// letters, digits and / . - _, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
