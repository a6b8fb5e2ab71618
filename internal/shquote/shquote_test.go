package shquote_test

import (
	"testing"

	"github.com/toolsim/toolsim/internal/shquote"
)

func TestQuote(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain path", "out/seed-1.min.jsonl", "out/seed-1.min.jsonl"},
		{"space", "my trace.jsonl", "'my trace.jsonl'"},
		{"quote", "it's", `'it'\''s'`},
		{"empty", "", "''"},
		{"dollar", "$HOME", "'$HOME'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shquote.Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
