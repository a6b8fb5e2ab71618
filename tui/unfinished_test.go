package tui_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/tui"
)

// lineTexts joins a frame's line texts.
func lineTexts(f *tui.Frame) string {
	var b strings.Builder
	for _, l := range f.Lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// TestUnfinishedMark: the player shows a tool the input ended before it
// finished with ⋯ and the legend on the last frame only; a live view shows
// it running until its input ends.
func TestUnfinishedMark(t *testing.T) {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, T: 100, Kind: event.KindToolStart, ID: "a", Name: "bash", Args: []byte(`{"command":"npm test"}`)},
		{Seq: 3, T: 900, Kind: event.KindText, Text: "waiting"},
	}
	s := tui.NewStore(evs, tui.StoreOptions{Width: 60})
	defer s.Close()
	if got := lineTexts(s.Frame(2)); !strings.Contains(got, "▶ bash  npm test") || strings.Contains(got, "unfinished") {
		t.Errorf("a middle frame shows the tool as unfinished:\n%s", got)
	}
	last := lineTexts(s.Frame(3))
	for _, want := range []string{"  ⋯ bash  npm test\n", "  ⋯ unfinished: the input ended before 1 tool finished\n"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last frame lacks %q:\n%s", want, last)
		}
	}

	live := tui.NewLiveStore(tui.StoreOptions{Width: 60})
	defer live.Close()
	live.Append(evs...)
	if got := lineTexts(live.Frame(3)); !strings.Contains(got, "▶ bash") {
		t.Errorf("a live input that has not ended shows:\n%s", got)
	}
	live.SetEnded()
	if got := lineTexts(live.Frame(3)); !strings.Contains(got, "⋯ bash") || !strings.Contains(got, "unfinished") {
		t.Errorf("after the input ended the live view shows:\n%s", got)
	}
}
