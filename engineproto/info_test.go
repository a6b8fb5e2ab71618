package engineproto_test

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engineproto"
)

// startMode runs the test binary as an engine in the given mode.
func startMode(t *testing.T, mode string) (*engineproto.Client, error) {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	return engineproto.Start([]string{os.Args[0]}, engineproto.Options{Timeout: time.Minute})
}

// TestInfoFeaturesAndGrouping: init_ok's features and grouping reach
// Info; an engine that says nothing groups and supports every feature.
func TestInfoFeaturesAndGrouping(t *testing.T) {
	c, err := startMode(t, "no-grouping")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Info.Grouping || !slices.Equal(c.Info.Features, []string{"tools", "text"}) {
		t.Errorf("info %+v, want features [tools text] and no grouping", c.Info)
	}
	d, err := startMode(t, "reference")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.Info.Grouping || d.Info.Features != nil {
		t.Errorf("info %+v, want grouping and nil features", d.Info)
	}
}
