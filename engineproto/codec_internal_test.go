package engineproto

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// TestSplitChecked: splitting a checked array gives what the checking
// splitter gives.
func TestSplitChecked(t *testing.T) {
	for _, in := range []string{
		`[]`, `[ ]`, `[1]`, `[ {"a":[1,2,{"b":"],}\"["}]} , "x" ,[[],[3]], null ]`,
		`[{"seq":1,"t":0,"kind":"text","text":"a\\"}, {"s":"\\\\"}]`,
	} {
		want, serr := jsonscan.Array([]byte(in), nil)
		if serr != nil {
			t.Fatalf("%s: %v", in, serr)
		}
		got := splitChecked([]byte(in), nil)
		var w, g []string
		for _, e := range want {
			w = append(w, string(e))
		}
		for _, e := range got {
			g = append(g, string(e))
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
}
