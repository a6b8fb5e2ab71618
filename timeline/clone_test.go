package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/timeline"
)

// TestCloneIsDeep: a clone equals its item, nil and empty slices
// included, and changing anything of the original in place leaves it as
// it was.
func TestCloneIsDeep(t *testing.T) {
	child := &timeline.Item{Kind: timeline.ItemTool, Tool: &timeline.Tool{ID: "c", Status: timeline.StatusRunning}}
	orig := &timeline.Item{Kind: timeline.ItemToolGroup, Version: 7, Tools: []*timeline.Tool{
		{ID: "a", Status: timeline.StatusRunning, Children: []*timeline.Item{child},
			Delegation: &timeline.Delegation{Mode: "chain", Steps: []timeline.Step{{ID: "1", Status: timeline.StepRunning}}}},
		{ID: "b", Status: timeline.StatusOK, Children: []*timeline.Item{}, Delegation: &timeline.Delegation{Mode: "single", Steps: []timeline.Step{}}},
	}}
	c := orig.Clone()
	if diff := cmp.Diff(orig, c); diff != "" {
		t.Fatalf("clone differs (-orig +clone):\n%s", diff)
	}
	if c.Tools[1].Children == nil || c.Tools[1].Delegation.Steps == nil || c.Tool != nil {
		t.Fatal("the clone changed an empty slice to nil, or a nil tool to one")
	}
	want := orig.Clone()
	orig.Tools[0].Status = timeline.StatusOK
	orig.Tools[0].Children[0].Tool.Status = timeline.StatusOK
	orig.Tools[0].Delegation.Steps[0].Status = timeline.StepOK
	orig.Tools = append(orig.Tools[:1], &timeline.Tool{ID: "z"})
	if diff := cmp.Diff(want, c); diff != "" {
		t.Fatalf("a change to the original reached the clone (-before +after):\n%s", diff)
	}
}
