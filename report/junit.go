package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// The JUnit elements, in the Ant schema's order: a testsuite holds its
// properties, its testcases, then system-out and system-err; a testcase
// holds at most one failure or error.
type (
	junitSuites struct {
		XMLName xml.Name     `xml:"testsuites"`
		Suites  []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Package    string          `xml:"package,attr"`
		ID         int             `xml:"id,attr"`
		Timestamp  string          `xml:"timestamp,attr"`
		Hostname   string          `xml:"hostname,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Time       string          `xml:"time,attr"`
		Properties junitProperties `xml:"properties"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  string          `xml:"system-out"`
		SystemErr  string          `xml:"system-err"`
	}
	junitProperties struct {
		Properties []junitProperty `xml:"property"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure"`
		Error     *junitProblem `xml:"error"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes the suite as JUnit XML: one testcase per result, a
// failed oracle as a failure (type: the oracle) and unreadable input as an
// error, each with the reproduce command in its message and the diff and
// the saved traces in its text.
func WriteJUnit(w io.Writer, s *Suite) error {
	host := s.Hostname
	if host == "" {
		host = "localhost"
	}
	js := junitSuite{
		Name: s.Name, Package: "toolsim", ID: 0, Hostname: host,
		Timestamp:  s.Timestamp.UTC().Format("2006-01-02T15:04:05"),
		Time:       seconds(s.Time.Seconds()),
		Properties: junitProperties{Properties: properties(s)},
	}
	class := strings.ReplaceAll(s.Name, " ", ".")
	for _, r := range byClass(s.Results) {
		js.Tests++
		c := junitCase{Name: visible(r.Name), Classname: class, Time: seconds(r.Time.Seconds())}
		switch r.Status {
		case Fail:
			js.Failures++
			c.Failure = problem(&r, r.Oracle)
		case Error:
			js.Errors++
			c.Error = problem(&r, "input")
		}
		js.Cases = append(js.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{js}}); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// byClass folds the findings of one bug class into one result, named
// "bug: CLASS", in the place of its first: it fails when any of them
// fails, its detail lists every signature with its status and reproduce
// command, and its time is theirs summed. Results without a class stay as
// they are.
func byClass(rs []Result) []Result {
	var out []Result
	var lines [][]string // per result of out: its class's signature lines
	at := map[string]int{}
	for _, r := range rs {
		if r.Class == "" {
			out, lines = append(out, r), append(lines, nil)
			continue
		}
		i, ok := at[r.Class]
		if !ok {
			i = len(out)
			at[r.Class] = i
			out, lines = append(out, Result{Name: "bug: " + r.Class, Status: Pass, Class: r.Class}), append(lines, nil)
		}
		c := &out[i]
		c.Time += r.Time
		line := fmt.Sprintf("%s [%s]", r.Signature, r.Status)
		if r.Reproduce != "" {
			line += "\n  reproduce: " + r.Reproduce
		}
		lines[i] = append(lines[i], line)
		if r.Status == Fail && c.Status != Fail {
			c.Status, c.Oracle, c.Reproduce, c.Trace, c.Shrunk = Fail, r.Oracle, r.Reproduce, r.Trace, r.Shrunk
		}
	}
	for i, ls := range lines {
		if ls != nil {
			out[i].Detail = fmt.Sprintf("%d signatures:\n%s", len(ls), strings.Join(ls, "\n"))
		}
	}
	return out
}

// properties are the suite's: the tool, then one "oracles-not-run.N" per
// entry of NotRun (numbered from 1, so that no separator has to be
// chosen inside the values).
func properties(s *Suite) []junitProperty {
	ps := []junitProperty{{Name: "tool", Value: s.Name}}
	for i, line := range s.NotRun {
		ps = append(ps, junitProperty{Name: fmt.Sprintf("oracles-not-run.%d", i+1), Value: visible(line)})
	}
	return ps
}

func problem(r *Result, typ string) *junitProblem {
	if typ == "" {
		typ = "failure"
	}
	var text strings.Builder
	text.WriteString(r.Detail)
	if r.Diff != "" {
		text.WriteString("\n(-want +got):\n" + r.Diff)
	}
	for _, kv := range [][2]string{{"reproduce", r.Reproduce}, {"trace", r.Trace}, {"shrunk", r.Shrunk}, {"html", r.HTML}} {
		if kv[1] != "" {
			text.WriteString("\n" + kv[0] + ": " + kv[1])
		}
	}
	return &junitProblem{Message: visible(r.Message()), Type: visible(typ), Text: visible(strings.TrimLeft(text.String(), "\n"))}
}

// seconds formats a time as the schema's decimal.
func seconds(s float64) string { return fmt.Sprintf("%.3f", max(s, 0)) }
