package engineproto_test

import (
	"slices"
	"testing"
	"time"
)

// TestInfoFeaturesAndGrouping: init_ok's features and grouping reach
// Info; an engine that says nothing groups and supports every feature.
func TestInfoFeaturesAndGrouping(t *testing.T) {
	c, err := start(t, "no-grouping", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Info.Grouping || !slices.Equal(c.Info.Features, []string{"tools", "text"}) {
		t.Errorf("info %+v, want features [tools text] and no grouping", c.Info)
	}
	d, err := start(t, "reference", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.Info.Grouping || d.Info.Features != nil {
		t.Errorf("info %+v, want grouping and nil features", d.Info)
	}
}
