package term

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestOptionsDefaults(t *testing.T) {
	got, err := Options{Path: "app"}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Path: "app", Cols: 120, Rows: 40, Quiet: 200 * time.Millisecond, Grace: 500 * time.Millisecond}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withDefaults (-want +got):\n%s", diff)
	}
}

func TestEnviron(t *testing.T) {
	t.Setenv("TERM", "dumb")
	t.Setenv("COLUMNS", "80")
	tests := []struct {
		name string
		env  []string
		want []string // when not nil, the whole result
		term string   // the TERM the program sees
	}{
		{"explicit without TERM", []string{"A=1"}, []string{"A=1", "TERM=xterm-256color"}, "xterm-256color"},
		{"explicit TERM kept", []string{"TERM=screen", "COLUMNS=9"}, []string{"TERM=screen", "COLUMNS=9"}, "screen"},
		{"inherited", nil, nil, "xterm-256color"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := environ(tt.env)
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("environ (-want +got):\n%s", diff)
				}
			}
			var terms []string
			for _, kv := range got {
				if v, ok := strings.CutPrefix(kv, "TERM="); ok {
					terms = append(terms, v)
				}
			}
			if diff := cmp.Diff([]string{tt.term}, terms); diff != "" {
				t.Errorf("TERM (-want +got):\n%s", diff)
			}
			if tt.env == nil && slices.Contains(got, "COLUMNS=80") {
				t.Errorf("the harness's COLUMNS was inherited: %v", got)
			}
			if tt.env == nil && len(got) < len(os.Environ())-2 {
				t.Errorf("the environment was not inherited: %v", got)
			}
		})
	}
}

func TestSnapshotText(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"trailing rows dropped", []string{"a", "", "b", "", ""}, "a\n\nb"},
		{"empty", []string{"", ""}, ""},
		{"full", []string{"a", "b"}, "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Snapshot{Lines: tt.lines}).String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWaitErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  *WaitError
		want string
	}{
		{"timeout", &WaitError{What: "x", Timeout: time.Second, Screen: Snapshot{Lines: []string{"a", "b", ""}}, Err: ErrTimeout},
			"term: waiting for x: timed out after 1s; the screen:\n| a\n| b"},
		{"empty screen", &WaitError{What: "x", Timeout: time.Second, Screen: Snapshot{Lines: []string{""}}, Err: ErrClosed},
			"term: waiting for x: the terminal is closed; the screen is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}
