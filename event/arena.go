package event

import (
	"bytes"
	"unsafe"
)

// arena hands out strings and byte slices copied into large chunks, so a
// decoded event costs one allocation per chunk instead of one per field.
// A chunk is only ever appended to, never rewritten, so strings made over
// it stay immutable; byte slices are capped so that appending to one
// reallocates instead of running into its neighbours. A chunk lives as long
// as any event still refers to it.
type arena struct {
	buf []byte
}

// chunkSize is the size of a fresh chunk; larger values get their own.
const chunkSize = 64 << 10

func (a *arena) grab(n int) []byte {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(chunkSize, n))
	}
	start := len(a.buf)
	a.buf = a.buf[:start+n]
	return a.buf[start : start+n : start+n]
}

// str returns b as a string backed by the arena.
func (a *arena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	dst := a.grab(len(b))
	copy(dst, b)
	return unsafe.String(&dst[0], len(dst))
}

// bytes returns a copy of b backed by the arena.
func (a *arena) bytes(b []byte) []byte {
	dst := a.grab(len(b))
	copy(dst, b)
	return dst
}

// stringValue decodes a checked JSON string literal: escape-free ones are
// copied into the arena, others unescaped by the scanner.
func (a *arena) stringValue(val []byte, unescape func([]byte) string) string {
	inner := val[1 : len(val)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return unescape(inner)
	}
	return a.str(inner)
}
