package campaign_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
)

// TestShowProgress: off a terminal, a run prints a line at each tenth of
// its seeds, and the last says every seed was checked.
func TestShowProgress(t *testing.T) {
	var b strings.Builder
	c := campaign.Campaign{Seeds: 40, Workers: 1}
	end := c.ShowProgress(&b)
	if _, err := c.Run(func() harness.Engine { return planted.Reference() }); err != nil {
		t.Fatal(err)
	}
	end()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 10 || lines[9] != "progress: 40/40 scenarios, 0 failing" {
		t.Errorf("progress lines:\n%s", b.String())
	}
}
