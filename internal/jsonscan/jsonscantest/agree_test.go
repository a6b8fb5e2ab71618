package jsonscantest

import (
	"encoding/json"
	"fmt"
	"testing"
)

// recorder is a testing.TB that keeps the failure instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestAgree(t *testing.T) {
	type pair struct{ A, B int }
	right := func(b []byte, p *pair) bool { return json.Unmarshal(b, p) == nil }
	tests := []struct {
		name  string
		data  string
		fast  func([]byte, *pair) bool
		fails bool
	}{
		{"agrees", `{"A":1,"B":2}`, right, false},
		{"declines", `{"A":1}`, func([]byte, *pair) bool { return false }, false},
		{"decodes otherwise", `{"A":1,"B":2}`, func(_ []byte, p *pair) bool { p.A = 7; return true }, true},
		{"accepts what encoding/json refuses", `{"A":"x"}`, func([]byte, *pair) bool { return true }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			Agree(r, []byte(tc.data), tc.fast)
			if got := r.failed != ""; got != tc.fails {
				t.Errorf("failed = %v (%q), want %v", got, r.failed, tc.fails)
			}
		})
	}
}
