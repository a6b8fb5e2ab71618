package harness

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/oracle"
)

// A signature names what went wrong in a failure, independently of seed,
// ids, names, times and trace length: "RULE: WHAT". RULE is the rule of
// SPEC §2 in force at the event where the engine diverged (the model's
// rule for that event, see docs/findings.md), or what a whole-trace
// oracle compared ("results in another order"); WHAT is the kind of item
// and the field that differ, want → got where the values are states
// ("tool status interrupted → ok", "tool not shown", "extra notice
// item"). Two failures with one signature are one finding.

// wholeTrace names the oracles that judge a whole trace rather than an
// event, with the RULE half of their signatures (oracle.WholeTrace).
var wholeTrace = oracle.WholeTrace

// Sign fills the Signature of each violation found in evs, checked with
// opts. It replays the harness's model up to the last violation's event,
// so it costs one model pass: call it on failure only.
func Sign(evs []event.Event, found []Violation, opts Options) {
	signSource(SliceSource(evs), found, opts)
}

// signSource is Sign over a stream of the trace's events.
func signSource(src Source, found []Violation, opts Options) {
	if len(found) == 0 {
		return
	}
	rules := map[int64]string{} // seq → rule, for the violations' events
	var end string
	want := map[int64]bool{}
	for _, v := range found {
		want[v.Seq] = true
	}
	m := model.New(model.Config{MetaTools: opts.metaTools(), NoGrouping: opts.NoGrouping, ToolRows: opts.ToolRows})
	rd := newReader(src, true) // the model copies what it keeps
	for {
		ev, err := rd.next()
		if err != nil {
			if err == io.EOF {
				end = m.FinishRule()
			}
			break
		}
		if _, ok := rules[ev.Seq]; !ok && want[ev.Seq] {
			rules[ev.Seq] = m.Rule(ev)
		}
		m.Apply(ev)
	}
	for i := range found {
		v := &found[i]
		if v.Signature != "" {
			continue
		}
		v.rule = rules[v.Seq]
		if v.end {
			v.rule = end
		}
		v.Signature = signature(v, v.rule)
	}
}

// signature joins a violation's rule and what.
func signature(v *Violation, rule string) string {
	if r, ok := wholeTrace[v.Oracle]; ok {
		rule = r
	}
	if v.Oracle == OracleEngine && strings.Contains(v.Detail, "answering reset:") {
		rule = "engine reset" // before any event: no rule of the trace is in force
	}
	if rule == "" {
		rule = "the trace"
	}
	return rule + ": " + whatOf(v)
}

// whatOf is the WHAT half: what the oracle recorded, or a shape of the
// detail (digits, quoted text and ids blurred) for oracles that record
// nothing of their own.
func whatOf(v *Violation) string {
	if len(v.subjects) > 0 {
		return v.subjects[0].what
	}
	switch v.Oracle {
	case OraclePanic:
		return "engine panicked: " + blur(v.Detail)
	case OracleEngine:
		_, err, ok := strings.Cut(v.Detail, ": ")
		if !ok {
			err = v.Detail
		}
		// An external engine's own words follow the client's framing
		// (engine "CMD", answering batch id=N, timeline k of n): keep
		// them, which name the engine's oracle (an agent's resume or mcp
		// oracle), within blur's 80 bytes.
		if _, own, ok := strings.Cut(err, engineproto.AnsweredError); ok {
			err = own
		}
		return "engine failed: " + blur(err)
	case OracleOrder, OracleDeterminism, OracleReload, OracleRebuild, OracleReconnect, OracleIdempot:
		return "final timeline differs"
	case OracleReported:
		return "no problem reported"
	case OracleCrash:
		return blur(v.Detail)
	case OracleNondeterminism:
		if strings.Contains(v.Detail, "rendered") {
			return "different render"
		}
		return "different trace"
	case OracleIncremental:
		return "incremental render differs from a fresh render"
	}
	return v.Oracle + ": " + blur(v.Detail)
}

var (
	quoted = regexp.MustCompile(`"[^"]*"|'[^']*'|\[[^\]]*\]`)
	digits = regexp.MustCompile(`[0-9]+`)
	ids    = regexp.MustCompile(`\b(id=|tool )\S+`)
)

// blur takes the first line of a free-form detail and removes what
// varies between seeds: quoted text, ids, numbers. It is cut at 80 bytes.
func blur(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = quoted.ReplaceAllString(s, "…")
	s = ids.ReplaceAllString(s, "${1}…")
	s = digits.ReplaceAllString(s, "N")
	if len(s) > 80 {
		s = strings.ToValidUTF8(s[:80], "") + "…"
	}
	return strings.TrimSpace(s)
}

// rowWhat names the first difference of two outlines: a row one side
// lacks, or the first field that differs, want → got where the values
// are states.
func rowWhat(want, got []row) string {
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(want):
			return "extra " + noun(got[i])
		case i >= len(got):
			return "missing " + noun(want[i])
		case model.Same(want[i], got[i]):
			continue
		case want[i].Kind != got[i].Kind:
			if i+1 < len(want) && want[i+1].Kind == got[i].Kind {
				return "missing " + noun(want[i])
			}
			if i+1 < len(got) && got[i+1].Kind == want[i].Kind {
				return "extra " + noun(got[i])
			}
			return kindName(want[i]) + " shown as " + kindName(got[i])
		}
		return fieldWhat(want[i], got[i])
	}
	return "rows differ"
}

// noun names a row's kind: "tool" (meta tools too), "group", "notice
// item".
func noun(r row) string {
	switch {
	case r.Tool():
		return "tool"
	case r.Kind == "group":
		return r.Kind
	}
	return r.Kind + " item"
}

// kindName names a row's kind, telling meta tools from others.
func kindName(r row) string {
	if r.Kind == "meta" {
		return "meta tool"
	}
	return noun(r)
}

// fieldWhat names the first field in which two rows of one kind differ.
func fieldWhat(w, g row) string {
	n := noun(w)
	switch {
	case w.ID != g.ID:
		return n + " id differs"
	case w.Depth != g.Depth:
		return fmt.Sprintf("%s nesting depth %d → %d", n, w.Depth, g.Depth)
	case w.Members != g.Members:
		return "group size differs"
	case w.Status != g.Status:
		return fmt.Sprintf("%s status %s → %s", n, w.Status, g.Status)
	case w.Name != g.Name:
		return n + " name differs"
	case w.Updates != g.Updates:
		return n + " progress count differs"
	case w.Error != g.Error:
		return presence(n+" error", w.Error, g.Error)
	case w.Output != g.Output:
		return presence(n+" output", w.Output, g.Output)
	case w.EndT != g.EndT:
		return n + " end time differs"
	case w.Duration != g.Duration:
		return n + " duration differs"
	case w.Level != g.Level:
		return fmt.Sprintf("%s level %s → %s", n, w.Level, g.Level)
	case w.Interrupted != g.Interrupted:
		return fmt.Sprintf("%s interrupted %t → %t", n, w.Interrupted, g.Interrupted)
	case w.Text != g.Text:
		return presence(n+" text", w.Text, g.Text)
	}
	return n + " summary differs"
}

// presence says how a free-text field differs: missing, unexpected, or
// other text.
func presence(field, want, got string) string {
	switch {
	case got == "":
		return field + " missing"
	case want == "":
		return field + " unexpected"
	}
	return field + " differs"
}

// maxSubjects bounds the differences one step records.
const maxSubjects = 8

// stepSubjects lists the rows that differ among the items this step
// compared, each with its WHAT, in outline order: within an item, rows
// are followed while they stay aligned (same kind and id); a row one side
// lacks ends the item.
func stepSubjects(s *step) []subject {
	var out []subject
	for k := range s.pairs {
		pr := &s.pairs[k]
		w, g := s.wantRows(pr), s.gotRows(pr)
		for i := 0; i < max(len(w), len(g)) && len(out) < maxSubjects; i++ {
			if i < len(w) && i < len(g) && model.Same(w[i], g[i]) {
				continue
			}
			aligned := i < len(w) && i < len(g) && w[i].Kind == g[i].Kind && w[i].ID == g[i].ID
			what := rowWhat(w[i:], g[i:])
			out = append(out, subject{rowKey(pr.i, i, w, g), what})
			if !aligned {
				break
			}
		}
	}
	return out
}

// rowKey names row i of item item for telling stale differences from
// new ones: a tool by its id, anything else by its place.
func rowKey(item, i int, w, g []row) string {
	switch {
	case i < len(w) && w[i].Tool():
		return "tool " + w[i].ID
	case i < len(g) && g[i].Tool():
		return "tool " + g[i].ID
	}
	return fmt.Sprintf("item %d row %d", item, i)
}

// Expand lists one violation per difference vs saw that no earlier one
// saw (a difference an engine keeps showing is reported at every later
// event that compares its row, each time under another rule), each under
// its own signature: the first violation first, as it is.
func Expand(vs []Violation) []Violation {
	seen := map[subject]bool{}
	var out []Violation
	for _, v := range vs {
		subs := v.subjects
		if len(subs) == 0 {
			subs = []subject{{v.Oracle, whatOf(&v)}}
		}
		for k, sb := range subs {
			if seen[sb] {
				continue
			}
			seen[sb] = true
			w := v
			if k > 0 { // Sign signed v by its first subject
				w.subjects = subs[k : k+1]
				w.Signature = signature(&w, w.rule)
			}
			out = append(out, w)
		}
	}
	return out
}
