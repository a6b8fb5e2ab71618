package timeline

import "fmt"

// MarshalJSON encodes the timeline as documented in docs/timeline.md:
// {"diagnostics":[...],"format":"toolsim-timeline/1","items":[...],"now":N}.
// Empty lists are written as [], never null. It is [AppendJSON].
func (tl *Timeline) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, tl), nil
}

// UnmarshalJSON decodes a timeline with [Decode], rejecting another format
// version.
func (tl *Timeline) UnmarshalJSON(data []byte) error {
	back, err := Decode(data)
	if err != nil {
		return fmt.Errorf("decode timeline: %w", err)
	}
	*tl = *back
	return nil
}
