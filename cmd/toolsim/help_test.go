package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpSaysWhereAFlagApplies: a flag that only matters with another
// says so in the help of the command that lists it.
func TestHelpSaysWhereAFlagApplies(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"replay", "--help"}, []string{
			"toolsim replay --check-reconstruct [--faults LIST] [--seed N] [--fine] FILE",
			"with --check-reconstruct: comma-separated persistence faults",
			"with --check-reconstruct: seed for the faults' random choices",
			"with --check-reconstruct: write one record per text delta",
			"no effect here: replay runs no oracle",
		}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			c := &cli{stdout: &out, stderr: &errOut}
			if code := c.run(tt.args); code != exitOK {
				t.Fatalf("exit %d", code)
			}
			help := out.String() + errOut.String()
			for _, w := range tt.want {
				if !strings.Contains(help, w) {
					t.Errorf("the help lacks %q:\n%s", w, help)
				}
			}
		})
	}
}
