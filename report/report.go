package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Status of a result.
const (
	Pass  = "pass"
	Fail  = "fail"  // an oracle failed
	Error = "error" // the input could not be checked (unreadable, not a trace)
)

// Result is one checked trace, or one failing seed of a campaign (or a
// campaign's summary when nothing failed).
type Result struct {
	Name       string  `json:"name"`   // the trace path, or "seed N"
	Status     string  `json:"status"` // Pass, Fail or Error
	Events     int     `json:"events,omitempty"`
	Seed       *uint64 `json:"seed,omitempty"`
	Oracle     string  `json:"oracle,omitempty"`
	Seq        int64   `json:"seq,omitempty"` // the event after which the oracle failed
	Detail     string  `json:"detail,omitempty"`
	Diff       string  `json:"diff,omitempty"` // (-want +got)
	Violations int     `json:"violations,omitempty"`
	Reproduce  string  `json:"reproduce,omitempty"` // the one command that reproduces it
	Trace      string  `json:"trace,omitempty"`     // the failing trace as saved
	Shrunk     string  `json:"shrunk,omitempty"`    // its shrunk form, when there is one
	HTML       string  `json:"html,omitempty"`      // the page written for it
	Scenarios  int     `json:"scenarios,omitempty"` // a campaign summary: scenarios checked
	// A campaign's finding: its signature (what went wrong, whatever the
	// seed), how many seeds failed with it (Seed is the first), whether
	// the baseline lists it, and why it is flaky when its repro did not
	// fail again on a fresh engine. check fills Signature per trace.
	Signature string `json:"signature,omitempty"`
	Count     int    `json:"count,omitempty"`
	Known     bool   `json:"known,omitempty"`
	Flaky     string `json:"flaky,omitempty"`
	// KnownClass marks a finding of a --racy campaign whose signature the
	// baseline does not list but whose bug class it does: it passes.
	KnownClass bool `json:"known_class,omitempty"`
	// After names the finding this one is seen only after (its repro
	// fails with that one first): it passes, to come back or go once
	// that one is fixed.
	After string `json:"after,omitempty"`
	// Candidates and Rejected are a finding's shrink: the candidates
	// tried, and those rejected for drift (another signature, or outside
	// the run's domain).
	Candidates int `json:"candidates,omitempty"`
	Rejected   int `json:"rejected,omitempty"`
	// Runs counts the engines started for a finding after its seed, to
	// shrink and confirm it (campaign.Finding.Runs): what a slow engine
	// pays per finding.
	Runs int `json:"runs,omitempty"`
	// Class is the bug class of a finding's signature (campaign.ClassOf):
	// the JUnit report gives each class one testcase listing its
	// signatures.
	Class string `json:"class,omitempty"`
	// Robustness says why a finding's repro is outside the engine's
	// contract; Documented names the library behaviour it shows, declared
	// documented or, with ByDesign, by design, undocumented. Either makes
	// it pass unless the run counts it.
	Robustness string        `json:"robustness,omitempty"`
	Documented string        `json:"documented,omitempty"`
	ByDesign   bool          `json:"by_design,omitempty"`
	Time       time.Duration `json:"-"`
}

// Suite is what one command checked.
type Suite struct {
	Name      string    // "toolsim check" or "toolsim fuzz"
	Timestamp time.Time // when it started
	Hostname  string    // where it ran ("localhost" when empty)
	Results   []Result
	Time      time.Duration // how long it took
	// NotRun lists the oracles the command did not run, each as
	// "ORACLE: why" (a campaign's Report.Skipped).
	NotRun []string

	last time.Time // when the last result was added (Add)
}

// Line is one line of a JSON report: a result with its suite's name, its
// time in seconds, and the oracles the suite did not run.
type Line struct {
	Suite string `json:"suite"`
	Result
	Seconds float64  `json:"seconds"`
	NotRun  []string `json:"not_run,omitempty"`
}

// ReadJSON reads a report WriteJSON wrote; name is used in errors, which
// give the line.
func ReadJSON(r io.Reader, name string) ([]Line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []Line
	for n := 1; sc.Scan(); n++ {
		var l Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON report line: %w", name, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// WriteJSON writes one JSON object per result, one per line (JSON Lines),
// each with the suite's name under "suite" and, when some oracles were
// not run, their list under "not_run".
func WriteJSON(w io.Writer, s *Suite) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, r := range s.Results {
		if err := enc.Encode(Line{s.Name, r, r.Time.Seconds(), s.NotRun}); err != nil {
			return fmt.Errorf("report: result %d (%s): %w", i+1, r.Name, err)
		}
	}
	return nil
}

// Message is the one-line description of a failed result: its oracle and
// detail, then the command that reproduces it.
func (r *Result) Message() string {
	var b strings.Builder
	if r.Seq > 0 {
		fmt.Fprintf(&b, "after seq %d: ", r.Seq)
	}
	if r.Oracle != "" {
		b.WriteString(r.Oracle + ": ")
	}
	b.WriteString(firstLine(r.Detail))
	if r.Reproduce != "" {
		b.WriteString("; reproduce: " + r.Reproduce)
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// visible replaces the characters XML 1.0 cannot carry (controls other than
// tab, newline and carriage return, invalid UTF-8) by visible stand-ins.
func visible(s string) string {
	ok := true
	for _, r := range s {
		if !xmlChar(r) {
			ok = false
			break
		}
	}
	if ok && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨bad byte %02X⟩", s[i])
		case r < 0x20 && !xmlChar(r):
			b.WriteRune(0x2400 + r)
		case !xmlChar(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// xmlChar reports whether r may appear in an XML 1.0 document.
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
}
