//go:build unix && !linux

package term

// family is the record of a Term's processes. Without Linux's /proc it
// finds none: Close reaches the process group and the leader only.
type family struct{}

// newFamily returns the empty record.
func newFamily(int, string) *family { return &family{} }

// scan finds nothing.
func (*family) scan() []int { return nil }
