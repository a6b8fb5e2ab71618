package harness

import (
	"fmt"
	"slices"

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
				Detail: "the diagnostics differ from the anomalies in the trace", Diff: cmp.Diff(want, got)})
		}
		return
	}
	want := diagList(md[o.modelSeen:], true)
	got := diagList(s.tl.Diagnostics[min(o.engineSeen, len(s.tl.Diagnostics)):], true)
	if !slices.Equal(want, got) {
		p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleDiagnostics,
			Detail: fmt.Sprintf("after %s: the diagnostics added differ from the anomaly it holds", describe(s.ev)),
			Diff:   cmp.Diff(want, got)})
	}
	o.modelSeen, o.engineSeen = len(md), len(s.tl.Diagnostics)
}
