package rebuild

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/store"
)

// TestPlainHeader checks that every header plainHeader takes decodes as
// encoding/json decodes it, and that it leaves the others alone.
func TestPlainHeader(t *testing.T) {
	tests := []struct {
		line  string
		plain bool
	}{
		{`{"log":"toolsim-log/1","t0":"2025-01-01T00:00:00.000Z"}`, true},
		{`{"log":"toolsim-log/1","t0":"2025-01-01T00:00:00.000Z","writer":"toolsim persist"}`, true},
		{`{"log":"toolsim-log/1","t0":""}`, true},
		{`{"log":"toolsim-log/1","t0":"a\"b"}`, false},
		{`{"log":"toolsim-log/1","t0":"é"}`, false},
		{`{"log":"toolsim-log/1","t0":"x","writer":"other"}`, false},
		{`{"log":"toolsim-log/1","t0":"x","seed":3}`, false},
		{`{"log":"toolsim-log/1","t0":"x"} `, false},
		{`{"log":"toolsim-log/1","t0":"x"`, false},
		{`{ "log":"toolsim-log/1","t0":"x"}`, false},
		{`{"log":"toolsim-log/2","t0":"x"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, ok := plainHeader([]byte(tt.line))
			if ok != tt.plain {
				t.Fatalf("plainHeader took it: %v, want %v", ok, tt.plain)
			}
			if !ok {
				return
			}
			var want store.Header
			if err := json.Unmarshal([]byte(tt.line), &want); err != nil {
				t.Fatalf("a line plainHeader took is not valid JSON: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-encoding/json +plainHeader):\n%s", diff)
			}
		})
	}
}
