package timeline_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/timeline"
)

func sample() *timeline.Timeline {
	child := &timeline.Tool{ID: "c", Name: "read", Status: timeline.StatusOK, Parent: "t", StartT: 2, EndT: 3, DurationMS: 1}
	return &timeline.Timeline{
		Now: 40,
		Items: []*timeline.Item{
			{Kind: timeline.ItemAssistant, Text: "hi", Interrupted: true, Version: 3},
			{Kind: timeline.ItemToolGroup, Batch: "m1", Tools: []*timeline.Tool{
				{ID: "t", Name: "task", Status: timeline.StatusRunning, StartT: 1, UpdateSeq: 2,
					Delegation: &timeline.Delegation{Mode: "chain", ActiveID: "1", Steps: []timeline.Step{{ID: "1", Agent: "a", Task: "x", Status: "running"}}},
					Children:   []*timeline.Item{{Kind: timeline.ItemTool, Tool: child}}},
				{ID: "u", Name: "bash", Status: timeline.StatusFailed, Error: "boom", StartT: 1, EndT: 9, DurationMS: 8, Output: "o"},
			}},
			{Kind: timeline.ItemNotice, Level: timeline.NoticeInterrupted},
		},
		Diagnostics: []timeline.Diagnostic{{Seq: 7, Code: timeline.DiagUnknownID, ID: "zz"}},
	}
}

// checkSorted walks a JSON value and fails if any object's keys are not in
// sorted order.
func checkSorted(t *testing.T, dec *json.Decoder, path string) {
	t.Helper()
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	switch tok {
	case json.Delim('{'):
		var keys []string
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			checkSorted(t, dec, path+"."+k.(string))
		}
		dec.Token()
		if !slices.IsSorted(keys) {
			t.Errorf("keys of %s are not sorted: %v", path, keys)
		}
	case json.Delim('['):
		for dec.More() {
			checkSorted(t, dec, path+"[]")
		}
		dec.Token()
	}
}

func TestJSONKeysSorted(t *testing.T) {
	out, err := json.Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	checkSorted(t, json.NewDecoder(bytes.NewReader(out)), "$")
	for _, want := range []string{`"format":"toolsim-timeline/1"`, `"status":"running"`, `"status":"failed"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("encoding lacks %s: %s", want, out)
		}
	}
	if strings.Contains(string(out), "Version") || strings.Contains(string(out), "version") {
		t.Errorf("versions leaked into the contract: %s", out)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	in := sample()
	out, _ := json.Marshal(in)
	var back timeline.Timeline
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, &back, cmpopts.IgnoreFields(timeline.Item{}, "Version")); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestJSONEmptyListsAndVersion(t *testing.T) {
	out, _ := json.Marshal(&timeline.Timeline{})
	if want := `{"diagnostics":[],"format":"toolsim-timeline/1","items":[],"now":0}`; string(out) != want {
		t.Errorf("empty timeline = %s, want %s", out, want)
	}
	var tl timeline.Timeline
	err := json.Unmarshal([]byte(`{"format":"toolsim-timeline/9","items":[]}`), &tl)
	if err == nil || !strings.Contains(err.Error(), `format "toolsim-timeline/9"`) {
		t.Errorf("other format accepted or unclear error: %v", err)
	}
}

func TestStatusAndElapsed(t *testing.T) {
	for _, s := range []timeline.Status{timeline.StatusOK, timeline.StatusFailed, timeline.StatusInterrupted, timeline.StatusDenied} {
		if !s.Terminal() {
			t.Errorf("%s is not terminal", s)
		}
	}
	for _, s := range []timeline.Status{timeline.StatusPending, timeline.StatusRunning} {
		if s.Terminal() {
			t.Errorf("%s is terminal", s)
		}
	}
	run := &timeline.Tool{Status: timeline.StatusRunning, StartT: 100}
	done := &timeline.Tool{Status: timeline.StatusOK, StartT: 100, DurationMS: 7}
	if run.Elapsed(350) != 250 || done.Elapsed(999) != 7 {
		t.Errorf("elapsed running=%d done=%d, want 250 and 7", run.Elapsed(350), done.Elapsed(999))
	}
}
