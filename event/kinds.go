package event

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/internal/spell"
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
	names := make([]string, len(kinds))
	for i, known := range kinds {
		names[i] = string(known)
	}
	near, ok := spell.Nearest(string(k), names)
	return Kind(near), ok
}
