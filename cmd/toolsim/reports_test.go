package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/report"
)

// TestCheckReports: one JSON object and one testcase per trace; an
// unreadable trace is an error, a failing one a failure with its oracle
// and reproduce command; the JUnit report validates.
func TestCheckReports(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(good, []byte(`{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"Read","args":{}}`+"\n"+`{"seq":2,"t":1,"kind":"tool_done","id":"a","ok":true}`+"\n"), 0o644)
	stuck := filepath.Join(dir, "stuck.jsonl")
	os.WriteFile(stuck, []byte(`{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"Read","args":{}}`+"\n"+`{"seq":2,"t":1,"kind":"cancel"}`+"\n"), 0o644)
	junit, jsonl := filepath.Join(dir, "r", "check.xml"), filepath.Join(dir, "r", "check.jsonl")
	c, out, _ := testCLI(newSpinner)
	code := c.run([]string{"check", "--junit", junit, "--json", jsonl, good, stuck, filepath.Join(dir, "missing.jsonl")})
	if code != exitUsage {
		t.Fatalf("exit %d, want %d (an unreadable trace)\n%s", code, exitUsage, out)
	}
	xml, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.ValidateJUnit(xml); err != nil {
		t.Errorf("%v\n%s", err, xml)
	}
	for _, want := range []string{`tests="3" failures="1" errors="1"`, `reproduce: toolsim check ` + stuck, `type="input"`} {
		if !strings.Contains(string(xml), want) {
			t.Errorf("JUnit lacks %s:\n%s", want, xml)
		}
	}
	data, _ := os.ReadFile(jsonl)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d JSON lines, want 3:\n%s", len(lines), data)
	}
	var got []report.Result
	for _, l := range lines {
		var r report.Result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if got[0].Status != report.Pass || got[1].Status != report.Fail || got[2].Status != report.Error {
		t.Errorf("statuses %s %s %s", got[0].Status, got[1].Status, got[2].Status)
	}
	if r := got[1]; r.Oracle == "" || r.Seq != 2 || r.Diff == "" || r.Reproduce != "toolsim check "+stuck || r.Events != 2 {
		t.Errorf("failure object: %+v", r)
	}
}

// TestFuzzReportsNotRun: a campaign's reports name the oracles it did not
// run, as its coverage table does.
func TestFuzzReportsNotRun(t *testing.T) {
	dir := t.TempDir()
	junit, jsonl := filepath.Join(dir, "fuzz.xml"), filepath.Join(dir, "fuzz.jsonl")
	c, out, errOut := testCLI(nil)
	if code := c.run([]string{"fuzz", "--seeds", "20", "--faults", "none", "--junit", junit, "--json", jsonl}); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Status string   `json:"status"`
		NotRun []string `json:"not_run"`
	}
	if err := json.Unmarshal(data, &line); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if line.Status != report.Pass || len(line.NotRun) != 3 || !strings.HasPrefix(line.NotRun[0], "reference: ") || !strings.HasPrefix(line.NotRun[1], "reload: ") || !strings.HasPrefix(line.NotRun[2], "crash: ") {
		t.Errorf("summary %+v, want a pass naming reference, reload and crash as not run", line)
	}
	xml, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(xml), `<property name="oracles-not-run.1" value="reference: `) {
		t.Errorf("JUnit report has no oracles-not-run property:\n%s", xml)
	}
}

// TestReportUnwritable: a report that cannot be written fails the command.
func TestReportUnwritable(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(good, []byte(`{"seq":1,"t":0,"kind":"text","text":"hi"}`+"\n"), 0o644)
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	c, _, errOut := testCLI(nil)
	if code := c.run([]string{"check", "--junit", filepath.Join(blocker, "x.xml"), good}); code != exitFail || !strings.Contains(errOut.String(), "toolsim check:") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestVersionString: the module version, revision, dirty mark and time
// come from the build info.
func TestVersionString(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-11-24T10:00:00Z"}}}
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{bi, true, "toolsim v1.2.3 revision abc123-dirty (2026-11-24T10:00:00Z) go1.26.0"},
		{&debug.BuildInfo{GoVersion: "go1.26.0"}, true, "toolsim (devel) revision unknown go1.26.0"},
		{nil, false, "toolsim (unknown version: no build information)"},
	} {
		if got := versionString(tc.bi, tc.ok); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
