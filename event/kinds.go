package event

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// kinds are the kinds of format v1, in the order of docs/trace-format.md.
var kinds = []Kind{
	KindTurnStart, KindUser, KindThinking, KindText, KindToolStart,
	KindToolProgress, KindToolDone, KindPermission, KindCancel, KindError,
	KindTurnEnd, KindToolUpdate, KindCompact,
}

// Kinds returns the kinds of format v1 this package implements (revision
// Revision), in the order docs/trace-format.md lists them.
func Kinds() []Kind { return slices.Clone(kinds) }

// ErrUnknownKind is wrapped by the *DecodeError that names an event of a
// kind outside format v1: the warning a Reader gives ReaderOptions.Warn,
// or the error of Next with ReaderOptions.StrictKinds.
var ErrUnknownKind = errors.New("unknown event kind")

// unknownKindError describes an event of kind k, which is not Known: the
// kind, the nearest known one when a typo is likely, and the known kinds.
func unknownKindError(k Kind) *DecodeError {
	names := make([]string, len(kinds))
	for i, known := range kinds {
		names[i] = string(known)
	}
	hint := ""
	if near, ok := NearestKind(k); ok {
		hint = fmt.Sprintf("did you mean %q? ", near)
	}
	return &DecodeError{
		Field:  "kind",
		Reason: fmt.Sprintf("unknown event kind %q (%sknown: %s)", k, hint, strings.Join(names, ", ")),
		Err:    ErrUnknownKind,
	}
}

// NearestKind returns the known kind that k most likely misspells: the
// one at the smallest edit distance (letters added, dropped, changed or
// two neighbours swapped, ignoring case), when that distance is at most 2
// and less than half the known kind's length. It reports false for a
// known kind and for a kind no known one is near.
func NearestKind(k Kind) (Kind, bool) {
	if k.Known() {
		return "", false
	}
	best, bestDist := Kind(""), 3
	lower := strings.ToLower(string(k))
	for _, known := range kinds {
		d := editDistance(lower, string(known))
		if d < bestDist && 2*d < len(known) {
			best, bestDist = known, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, by byte.
func editDistance(a, b string) int {
	// rows[i%3] is row i of the table: the distances of a[:i] to b[:j].
	var rows [3][]int
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur, prev, prev2 := rows[i%3], rows[(i-1)%3], rows[(i+1)%3]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
	}
	return rows[len(a)%3][len(b)]
}
