package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/report"
)

// TestMergeDeduplicatesBySignature: two shards' reports merge into one
// finding per signature, counts summed and the lowest first seed kept; a
// baseline entry one shard no longer finds is fixed only if no shard
// found it; a clean shard's summary adds its scenarios.
func TestMergeDeduplicatesBySignature(t *testing.T) {
	seed := func(n uint64) *uint64 { return &n }
	dir := t.TempDir()
	write := func(name string, rs ...report.Result) string {
		var b strings.Builder
		for _, r := range rs {
			line, _ := json.Marshal(report.Line{Suite: "toolsim fuzz", Result: r})
			b.Write(append(line, '\n'))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.jsonl",
		report.Result{Name: "x", Status: report.Fail, Signature: "cancel: tool left running", Count: 3, Seed: seed(40), Reproduce: "toolsim check a/seed-40.min.jsonl"},
		report.Result{Name: "fixed: y", Status: report.Pass, Signature: "result: tool error missing"})
	b := write("b.jsonl",
		report.Result{Name: "x", Status: report.Fail, Signature: "cancel: tool left running", Count: 2, Seed: seed(7), Reproduce: "toolsim check b/seed-7.min.jsonl"},
		report.Result{Name: "y", Status: report.Pass, Known: true, Signature: "result: tool error missing", Count: 1, Seed: seed(9)})
	c, out, errOut := testCLI(nil)
	merged := filepath.Join(dir, "all.jsonl")
	if code := c.run([]string{"merge", "--json", merged, a, b}); code != exitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFail, out, errOut)
	}
	data, err := os.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l report.Line
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Signature+" "+l.Status+" "+itoa(l.Count)+" "+itoa(int(*l.Seed))+" "+l.Reproduce)
	}
	want := []string{
		"cancel: tool left running fail 5 7 toolsim check b/seed-7.min.jsonl",
		"result: tool error missing pass 1 9 ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged findings (-want +got):\n%s\n%s", diff, out)
	}
	if !strings.Contains(out.String(), "2 reports merged: 2 findings") {
		t.Errorf("no summary line:\n%s", out)
	}
}

// TestMergeRejectsOtherReports: a check report, or a line that is not
// JSON, is refused with the file and line.
func TestMergeRejectsOtherReports(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, []byte("{\"suite\":\"toolsim fuzz\",\"name\":\"a\",\"status\":\"pass\"}\nnot json\n"), 0o644)
	c, out, errOut := testCLI(nil)
	if code := c.run([]string{"merge", path}); code != exitUsage {
		t.Fatalf("exit %d, want %d\n%s", code, exitUsage, out)
	}
	if !strings.Contains(errOut.String(), path+":2: not a JSON report line") {
		t.Errorf("error does not name file and line: %s", errOut)
	}
}
