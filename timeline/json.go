package timeline

import (
	"encoding/json"
	"fmt"
)

// jsonTimeline is the top-level JSON object, keys in sorted order.
type jsonTimeline struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Format      string       `json:"format"`
	Items       []*Item      `json:"items"`
	Now         int64        `json:"now"`
}

// MarshalJSON encodes the timeline as documented in docs/timeline.md:
// {"diagnostics":[...],"format":"toolsim-timeline/1","items":[...],"now":N}.
// Empty lists are written as [], never null.
func (tl *Timeline) MarshalJSON() ([]byte, error) {
	j := jsonTimeline{Diagnostics: tl.Diagnostics, Format: Format, Items: tl.Items, Now: tl.Now}
	if j.Diagnostics == nil {
		j.Diagnostics = []Diagnostic{}
	}
	if j.Items == nil {
		j.Items = []*Item{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a timeline, rejecting another format version.
func (tl *Timeline) UnmarshalJSON(data []byte) error {
	var j jsonTimeline
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("decode timeline: %w", err)
	}
	if j.Format != Format {
		return fmt.Errorf("decode timeline: format %q, want %q", j.Format, Format)
	}
	*tl = Timeline{Diagnostics: j.Diagnostics, Items: j.Items, Now: j.Now}
	return nil
}
