package engineproto

import "strings"

// SplitCommand splits an engine's command line (toolsim's --engine CMD)
// into its words: blanks separate words, 'single quotes' group them, and
// two quotes inside quotes stand for one, as in testscript. No other
// character is special: the words go to the engine as they are, with no
// shell in between.
func SplitCommand(line string) []string {
	var args []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quoted && ch == '\'' && i+1 < len(line) && line[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case ch == '\'':
			quoted, inWord = !quoted, true
		case !quoted && (ch == ' ' || ch == '\t'):
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}
