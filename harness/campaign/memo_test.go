package campaign

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
)

// TestMemo: a full check answers both kinds of check, a check stopped at
// the first violation answers only its kind and never replaces a full
// one, and the settings are part of the key.
func TestMemo(t *testing.T) {
	evs := []event.Event{{Seq: 1, Kind: event.KindToolStart, ID: "a", Name: "grep"}}
	two := []harness.Violation{{Signature: "x"}, {Signature: "y"}}
	for _, tt := range []struct {
		name      string
		put       func(m *memo, key string)
		first     bool
		want      []harness.Violation
		wantFound bool
	}{
		{"nothing kept", func(*memo, string) {}, true, nil, false},
		{"a full check answers a first-only one with its first", func(m *memo, k string) { m.put(k, two, false) }, true, two[:1], true},
		{"a full check answers a full one", func(m *memo, k string) { m.put(k, two, false) }, false, two, true},
		{"a first-only check does not answer a full one", func(m *memo, k string) { m.put(k, two[:1], true) }, false, nil, false},
		{"a first-only check never replaces a full one", func(m *memo, k string) { m.put(k, two, false); m.put(k, nil, true) }, false, two, true},
		{"a passing trace is remembered", func(m *memo, k string) { m.put(k, nil, false) }, true, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemo()
			k := m.key(evs, true, true)
			tt.put(m, k)
			got, found := m.get(k, tt.first)
			if found != tt.wantFound {
				t.Fatalf("found %v, want %v", found, tt.wantFound)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b harness.Violation) bool { return a.Signature == b.Signature })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	m := newMemo()
	if m.key(evs, true, false) == m.key(evs, false, false) || m.key(evs, false, true) == m.key(evs, false, false) {
		t.Error("the check's settings are not part of the key")
	}
	other := []event.Event{{Seq: 1, Kind: event.KindToolStart, ID: "b", Name: "grep"}}
	if m.key(evs, true, true) == m.key(other, true, true) {
		t.Error("two traces share a key")
	}
}
