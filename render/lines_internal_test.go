package render

import "testing"

// FuzzFirstLine: firstLine is the first of splitLines' lines, found
// without splitting the rest.
func FuzzFirstLine(f *testing.F) {
	for _, s := range []string{"", "a", "a\nb", "a\r\nb", "\r\r\n", "a\r", "\n\n", "x\r\ny\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := firstLine(s), splitLines(s)[0]; got != want {
			t.Fatalf("firstLine(%q) = %q, want %q", s, got, want)
		}
	})
}
