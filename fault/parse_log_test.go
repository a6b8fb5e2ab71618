package fault_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
)

func TestParseLog(t *testing.T) {
	tests := []struct {
		name, in string
		want     fault.List
		err      bool
	}{
		{"none", "", nil, false},
		{"all is every log fault", "all", fault.Log, false},
		{"one", "torn", fault.List{fault.Torn}, false},
		{"a trace fault", "cancel", nil, true},
		{"unknown", "nope", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fault.ParseLog(tt.in)
			if (err != nil) != tt.err || got.String() != tt.want.String() {
				t.Errorf("ParseLog(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}
