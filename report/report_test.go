package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func sample() *Suite {
	seed := uint64(42)
	return &Suite{
		Name:      "toolsim check",
		Timestamp: time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC),
		Results: []Result{
			{Name: "ok.jsonl", Status: Pass, Events: 12, Time: 3 * time.Millisecond},
			{Name: "bad <1>.jsonl", Status: Fail, Events: 9, Oracle: "model", Seq: 7, Detail: "tool a: status running, want ok\nmore", Diff: "- a ok\n+ a running\x1b[0m\n", Violations: 2, Reproduce: "toolsim check 'bad <1>.jsonl'", Seed: &seed},
			{Name: "gone.jsonl", Status: Error, Detail: "open gone.jsonl: no such file or directory", Reproduce: "toolsim check gone.jsonl"},
		},
		Time: 1500 * time.Millisecond,
	}
}

// TestJSONLines: one object per result, every field a CI script reads.
func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), buf.String())
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"suite": "toolsim check", "name": "bad <1>.jsonl", "status": "fail", "events": 9.0, "seed": 42.0,
		"oracle": "model", "seq": 7.0, "detail": "tool a: status running, want ok\nmore",
		"diff": "- a ok\n+ a running\x1b[0m\n", "violations": 2.0, "reproduce": "toolsim check 'bad <1>.jsonl'", "seconds": 0.0,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failure object (-want +got):\n%s", diff)
	}
}

// TestJUnitValidates: the report passes the schema checks, and its
// failure carries the oracle and the reproduce command.
func TestJUnitValidates(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	if err := ValidateJUnit(buf.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	xmllint(t, buf.Bytes())
	var doc struct {
		Suites []struct {
			Tests int `xml:"tests,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	cs := doc.Suites[0].Cases
	if len(cs) != 3 || cs[0].Failure != nil || cs[1].Failure == nil || cs[2].Error == nil {
		t.Fatalf("testcases: %+v", cs)
	}
	f := cs[1].Failure
	if f.Type != "model" || f.Message != "after seq 7: model: tool a: status running, want ok; reproduce: toolsim check 'bad <1>.jsonl'" {
		t.Errorf("failure: type %q message %q", f.Type, f.Message)
	}
	if !strings.Contains(f.Text, "+ a running␛[0m") || strings.Contains(buf.String(), "\x1b") {
		t.Errorf("control characters not made visible:\n%s", f.Text)
	}
}

// TestNotRun: the oracles a campaign did not run travel in both reports:
// on every JSON line, and as a JUnit suite property that still validates.
func TestNotRun(t *testing.T) {
	s := sample()
	s.NotRun = []string{"incremental: over the protocol", "reference: no --diff; none"}
	var js bytes.Buffer
	if err := WriteJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(js.String(), "\n"), "\n") {
		var got struct {
			NotRun []string `json:"not_run"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s.NotRun, got.NotRun); diff != "" {
			t.Errorf("line %d not_run (-want +got):\n%s", i+1, diff)
		}
	}
	var x bytes.Buffer
	if err := WriteJUnit(&x, s); err != nil {
		t.Fatal(err)
	}
	if err := ValidateJUnit(x.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, x.String())
	}
	xmllint(t, x.Bytes())
	for _, want := range []string{
		`<property name="oracles-not-run.1" value="incremental: over the protocol"></property>`,
		`<property name="oracles-not-run.2" value="reference: no --diff; none"></property>`,
	} {
		if !strings.Contains(x.String(), want) {
			t.Errorf("JUnit has no %s:\n%s", want, x.String())
		}
	}
}

// TestValidateRejects: each structural mistake a CI parser trips on is
// caught, naming what is wrong.
func TestValidateRejects(t *testing.T) {
	good := func() string {
		var buf bytes.Buffer
		if err := WriteJUnit(&buf, sample()); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}()
	for _, tc := range []struct{ name, from, to, want string }{
		{"missing attribute", ` classname="toolsim.check"`, "", "required attribute classname"},
		{"unknown attribute", `<testsuite name=`, `<testsuite skipped="0" name=`, "attribute skipped is not in the schema"},
		{"bad timestamp", `timestamp="2026-11-24T09:30:00"`, `timestamp="2026-11-24 09:30"`, "timestamp"},
		{"timestamp with zone", `timestamp="2026-11-24T09:30:00"`, `timestamp="2026-11-24T09:30:00Z"`, "timestamp"},
		{"wrong count", `tests="3"`, `tests="4"`, "tests=4 but it holds 3"},
		{"wrong order", "<properties>", "<system-out></system-out><properties>", "order"},
		{"unknown element", "<properties>", "<properties><junk/>", "<junk>"},
		{"not xml", "</testsuites>", "", "junit: line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.from, tc.to, 1)
			if bad == good {
				t.Fatalf("%q not in the report", tc.from)
			}
			err := ValidateJUnit([]byte(bad))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// xmllint validates data against testdata/junit.xsd with libxml2's
// xmllint when it is installed (Debian: libxml2-utils).
func xmllint(t *testing.T, data []byte) {
	t.Helper()
	path, err := exec.LookPath("xmllint")
	if err != nil {
		t.Log("xmllint not installed (apt-get install libxml2-utils): schema validation by xmllint skipped")
		return
	}
	f := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(path, "--noout", "--schema", "testdata/junit.xsd", f).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}
