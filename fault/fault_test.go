package fault_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/fault"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want fault.List
		err  string
	}{
		{"", nil, ""},
		{"none", nil, ""},
		{"all", fault.All(), ""},
		{"cancel, order,cancel", fault.List{fault.Order, fault.Cancel}, ""},
		{"torn,unknown-id", fault.List{fault.UnknownID, "torn"}, ""},
		{"order,nope", nil, `unknown fault "nope" (known: all, none, order, cancel,`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := fault.Parse(tt.in)
			if tt.err != "" {
				var uf *fault.UnknownError
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &uf) {
					t.Fatalf("err = %v, want an UnknownError containing %q", err, tt.err)
				}
				return
			}
			if d := cmp.Diff(tt.want, got); err != nil || d != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s (err %v)", tt.in, d, err)
			}
		})
	}
}

func TestStringRoundTrip(t *testing.T) {
	for _, fs := range []fault.List{nil, fault.All(), {fault.Cancel, "torn"}} {
		back, err := fault.Parse(fs.String())
		if d := cmp.Diff(fs, back); err != nil || d != "" {
			t.Errorf("%v: round trip (-want +got):\n%s (err %v)", fs, d, err)
		}
	}
	if got := fault.All().String(); got != "all" {
		t.Errorf("All().String() = %q, want all", got)
	}
}

func TestLists(t *testing.T) {
	for _, f := range fault.Trace {
		if f.IsLog() {
			t.Errorf("trace fault %s says IsLog", f)
		}
	}
	for _, f := range fault.Log {
		if !f.IsLog() {
			t.Errorf("log fault %s says not IsLog", f)
		}
	}
	if got, want := len(fault.All()), len(fault.Trace)+len(fault.Log); got != want {
		t.Errorf("len(All()) = %d, want %d", got, want)
	}
	tests := []struct {
		name string
		in   fault.List
		str  string
		log  fault.List
	}{
		{"empty", nil, "none", nil},
		{"mixed", fault.List{fault.Cancel, fault.Torn, fault.NoSeq}, "cancel,torn,no-seq", fault.List{fault.Torn, fault.NoSeq}},
		{"trace only", fault.Trace, fault.Trace.Join(","), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.String(); got != tt.str {
				t.Errorf("String() = %q, want %q", got, tt.str)
			}
			if d := cmp.Diff(tt.log, tt.in.Log()); d != "" {
				t.Errorf("Log() (-want +got):\n%s", d)
			}
		})
	}
}
