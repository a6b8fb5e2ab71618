package harness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// diagOracle compares the diagnostics each event added with the
// anomalies the model found in it, and all of them at the end, when the
// engine declares diagnostics.
type diagOracle struct {
	engineSeen, modelSeen int
}

func (o *diagOracle) observe(p *pass, s *step) {
	if !p.fields.diagnostics || !s.last {
		return
	}
	md := p.model.Diagnostics()
	if s.end {
		want, got := diagList(md, true), diagList(s.tl.Diagnostics, true)
		if !slices.Equal(want, got) {
			p.fail(Violation{Seq: p.model.LastSeq(), Oracle: OracleDiagnostics,
				Detail: "the diagnostics differ from the anomalies in the trace", Diff: cmp.Diff(want, got),
				subjects: about(OracleDiagnostics, diagWhat(want, got))})
		}
		return
	}
	want := diagList(md[o.modelSeen:], true)
	got := diagList(s.tl.Diagnostics[min(o.engineSeen, len(s.tl.Diagnostics)):], true)
	if !slices.Equal(want, got) {
		p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleDiagnostics,
			Detail: fmt.Sprintf("after %s: the diagnostics added differ from the anomaly it holds", describe(s.ev)),
			Diff:   cmp.Diff(want, got), subjects: about(OracleDiagnostics, diagWhat(want, got))})
	}
	o.modelSeen, o.engineSeen = len(md), len(s.tl.Diagnostics)
}

// diagWhat names the first diagnostic code one list has and the other
// lacks (the lists are "seq N CODE ID" or "CODE ID" lines).
func diagWhat(want, got []string) string {
	code := func(line string) string {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "seq" {
			return f[2]
		}
		if len(f) > 0 {
			return f[0]
		}
		return ""
	}
	count := map[string]int{}
	for _, w := range want {
		count[code(w)]++
	}
	for _, g := range got {
		count[code(g)]--
	}
	for _, w := range want {
		if count[code(w)] > 0 {
			return "diagnostic " + code(w) + " missing"
		}
	}
	for _, g := range got {
		if count[code(g)] < 0 {
			return "diagnostic " + code(g) + " unexpected"
		}
	}
	return "diagnostics at other events"
}
