package campaign

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/contract"
)

// WriteFindings writes the findings table: the bug classes in order, each
// with its signatures, one line each, with the seed count, first seed,
// repro size, engine runs spent shrinking it and oracle; flaky findings
// follow. Findings seen only after
// another, documented behaviour and (outside robustness mode) findings
// outside the contract are counted under the table, not listed. Nothing is
// written when there is no finding.
func (r *Report) WriteFindings(w io.Writer) {
	if len(r.Findings) == 0 {
		return
	}
	classes := r.Classes()
	note := ""
	if r.NoShrink {
		note = " (unshrunk: a bug seen only after another is not set apart, so a shrinking run may count fewer)"
	}
	fmt.Fprintf(w, "findings: %s%s\n", r.Bugs(), note)
	fmt.Fprintln(w, "  bug  seeds  first  events  runs  oracle       signature")
	for i, cl := range classes {
		for _, fd := range cl.Findings {
			findingRow(w, fmt.Sprint(i+1), fd)
		}
	}
	for _, fd := range r.Findings {
		if fd.Flaky != "" {
			findingRow(w, "?", fd)
		}
	}
	for i, cl := range classes {
		fmt.Fprintf(w, "  bug %d: %s\n", i+1, cl.Name)
	}
	r.writeUnlisted(w)
	r.writeRuns(w)
}

// median is the median of xs (not empty), with one decimal when it falls
// between two values.
func median(xs []int) string {
	xs = slices.Sorted(slices.Values(xs))
	n := len(xs)
	if n%2 == 1 || xs[n/2-1] == xs[n/2] {
		return fmt.Sprint(xs[n/2])
	}
	return strconv.FormatFloat(float64(xs[n/2-1]+xs[n/2])/2, 'f', 1, 64)
}

// writeRuns writes what shrinking cost, when the run shrank a finding:
// the median of Finding.Runs over the findings shrunk (those of every
// standing, listed or not), and their sum.
func (r *Report) writeRuns(w io.Writer) {
	var runs []int
	total := 0
	for _, fd := range r.Findings {
		if fd.Runs > 0 {
			runs = append(runs, fd.Runs)
			total += fd.Runs
		}
	}
	if len(runs) == 0 {
		return
	}
	fmt.Fprintf(w, "  shrinking: %s, %d engine runs in all, median %s per finding (the runs column)\n",
		Plural(len(runs), "finding")+" shrunk", total, median(runs))
}

// writeUnlisted counts the findings the table leaves out, by reason.
func (r *Report) writeUnlisted(w io.Writer) {
	var hidden, documented, byDesign, outside int
	for _, fd := range r.Findings {
		switch {
		case fd.Flaky != "":
		case !r.Counts(fd) && fd.Documented != "" && fd.ByDesign:
			byDesign++
		case !r.Counts(fd) && fd.Documented != "":
			documented++
		case !r.Counts(fd):
			outside++
		case fd.After != "":
			hidden++
		}
	}
	if hidden > 0 {
		fmt.Fprintf(w, "  and %d more seen only after one of these (a consequence, or a bug it masks: fix that one first; --json lists them)\n", hidden)
	}
	if documented > 0 {
		fmt.Fprintf(w, "  and %d showing the library's documented behaviour, which the engine declares (--json lists them)\n", documented)
	}
	if byDesign > 0 {
		fmt.Fprintf(w, "  and %d showing behaviour the library means but does not document (by design: its code or a PR shows it), which the engine declares (--json lists them)\n", byDesign)
	}
	if outside > 0 {
		fmt.Fprintf(w, "  and %d whose repro the engine's contract rules out (--robustness reports them)\n", outside)
	}
}

// findingRow writes one finding's line of the table under bug number bug.
func findingRow(w io.Writer, bug string, fd *Finding) {
	first, events := fmt.Sprint(fd.Seed), "-"
	if fd.Replayed && fd.Count == 0 {
		first = "base" // found by replaying the baseline's repro only
	}
	switch {
	case fd.Known && fd.Shrunk != nil:
		events = fmt.Sprint(len(fd.Shrunk.Events)) // the baseline's repro
	case fd.Shrunk != nil:
		events = fmt.Sprintf("%d→%d", len(fd.Case.Events), len(fd.Shrunk.Events))
	}
	runs := "-"
	if fd.Runs > 0 {
		runs = fmt.Sprint(fd.Runs)
	}
	mark := ""
	switch {
	case fd.Flaky != "":
		mark = "  ← flaky"
	case fd.Known:
		mark = "  (known)"
	case fd.KnownClass:
		mark = "  (known bug, new signature)"
	case fd.Robustness != "":
		mark = "  (robustness)"
	}
	fmt.Fprintf(w, "  %3s %6d %6s %7s %5s  %-12s %s%s\n", bug, fd.Count, first, events, runs, fd.Violation.Oracle, fd.Signature, mark)
}

// Verdict is the run's last line ("FAIL: …" or "ok: …") and whether it
// failed: a new or flaky finding, or (when the run was not interrupted)
// an enabled fault class no scenario reached.
func (r *Report) Verdict() (line string, failed bool) {
	known, after, class := 0, 0, false
	for _, fd := range r.Findings {
		class = class || fd.KnownClass
		switch {
		case fd.Flaky != "" || !r.Counts(fd):
		case fd.After != "":
			after++
		case fd.Known:
			known++ // a bug that counts, listed: not the baseline's other entries
		}
	}
	bugs, newOnes, flaky := r.Bugs(), r.New(), 0
	for _, fd := range newOnes {
		if fd.Flaky != "" {
			flaky++
		}
	}
	switch {
	case len(newOnes) > 0:
		return fmt.Sprintf("FAIL: %s: %d new and %d flaky findings (%d known, %d only after another)",
			bugs, len(newOnes)-flaky, flaky, known, after), true
	case len(r.Missing) > 0 && !r.Interrupted:
		return fmt.Sprintf("FAIL: fault classes never reached: %s (run more seeds, or narrow --faults)", r.Missing.String()), true
	case known > 0 || class:
		return fmt.Sprintf("ok: only known findings: %s (%d in the baseline)%s", bugs, known, r.racyNote()), false
	}
	return "ok: every oracle held on every scenario" + r.racyNote(), false
}

// Documented is a log line naming the findings set apart as the library's
// declared behaviour (Finding.Documented), each with its seed count and
// behaviour, the documented ones apart from those by design
// (Finding.ByDesign), then those seen only after one of them: a
// consequence, or another bug that failed first the same way (Documents).
// "" when none.
func (r *Report) Documented() string {
	parts := map[bool][]string{} // by design or documented: the findings
	doc := map[string]bool{}
	for _, f := range r.Findings {
		if f.Documented != "" && f.Flaky == "" && f.After == "" {
			doc[f.Signature] = true
			parts[f.ByDesign] = append(parts[f.ByDesign], fmt.Sprintf("%q %s (%s)", f.Signature, Plural(f.Count, "seed"), f.Documented))
		}
	}
	var behind []string
	for _, f := range r.Findings {
		if doc[f.After] && f.Documented == "" {
			behind = append(behind, fmt.Sprintf("%q %s", f.Signature, Plural(f.Count, "seed")))
		}
	}
	var lines []string
	if len(parts[false]) > 0 {
		lines = append(lines, "documented behaviour, not counted: "+strings.Join(parts[false], ", "))
	}
	if len(parts[true]) > 0 {
		lines = append(lines, "behaviour "+contract.LabelByDesign+", not counted: "+strings.Join(parts[true], ", "))
	}
	if len(lines) == 0 {
		return ""
	}
	if len(behind) > 0 {
		lines = append(lines, "seen only after these (a consequence, or a bug that fails first the same way): "+strings.Join(behind, ", "))
	}
	return strings.Join(lines, "; ")
}

// racyNote names, in a Racy campaign, the flaky new findings and the new
// signatures of known bug classes it did not count.
func (r *Report) racyNote() string {
	flaky, class := 0, 0
	for _, fd := range r.Findings {
		switch {
		case !r.Racy || fd.Known:
		case fd.Flaky != "":
			flaky++
		case fd.KnownClass:
			class++
		}
	}
	note := ""
	if flaky > 0 {
		note += fmt.Sprintf("; %d flaky finding(s) not counted (--racy: not seen the same way again on a fresh engine)", flaky)
	}
	if class > 0 {
		note += fmt.Sprintf("; %d new signature(s) of a known bug not counted (--racy: the baseline lists another signature of its bug class)", class)
	}
	return note
}
