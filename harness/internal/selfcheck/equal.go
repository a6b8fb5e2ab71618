package selfcheck

import (
	"slices"

	"github.com/toolsim/toolsim/timeline"
)

// Equal reports whether two timelines are equal in the sense of
// Diff's comparison (Item.Version ignored, nil and empty slices equal). It
// is Diff's fast path: cmp.Diff runs only when this says they differ.
func Equal(a, b *timeline.Timeline) bool {
	return a.Now == b.Now && slices.Equal(a.Diagnostics, b.Diagnostics) && equalItems(a.Items, b.Items)
}

func equalItems(a, b []*timeline.Item) bool {
	return slices.EqualFunc(a, b, func(x, y *timeline.Item) bool {
		if x == nil || y == nil {
			return x == y
		}
		return x.Batch == y.Batch && x.Interrupted == y.Interrupted && x.Kind == y.Kind &&
			x.Level == y.Level && x.Text == y.Text && equalTool(x.Tool, y.Tool) &&
			slices.EqualFunc(x.Tools, y.Tools, equalTool)
	})
}

func equalTool(x, y *timeline.Tool) bool {
	if x == nil || y == nil {
		return x == y
	}
	return x.Batch == y.Batch && x.DurationMS == y.DurationMS && x.EndT == y.EndT &&
		x.Error == y.Error && x.ID == y.ID && x.Meta == y.Meta && x.Name == y.Name &&
		x.Output == y.Output && x.Parent == y.Parent && x.StartT == y.StartT &&
		x.Status == y.Status && x.Summary == y.Summary && x.UpdateSeq == y.UpdateSeq &&
		equalDelegation(x.Delegation, y.Delegation) && equalItems(x.Children, y.Children)
}

func equalDelegation(x, y *timeline.Delegation) bool {
	if x == nil || y == nil {
		return x == y
	}
	return x.ActiveID == y.ActiveID && x.Mode == y.Mode && slices.Equal(x.Steps, y.Steps)
}
