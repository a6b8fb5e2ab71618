package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// renderOracle checks §5.9 for engines that render incrementally with
// toolsim's renderer: an item whose Version did not move must still render
// as it did (render.Incremental keeps its text), so every change must come
// with a new version. It keeps the text of each compared item and, when an
// item changed in the model's eyes or the engine's but kept its version,
// compares the kept text with a fresh render.
type renderOracle struct {
	opts  render.Options
	texts []renderedItem
}

type renderedItem struct {
	item    *timeline.Item
	version uint64
	now     int64
	live    bool
	text    string
}

func newRenderOracle() *renderOracle {
	return &renderOracle{opts: render.Options{Width: 80, Output: true}}
}

func (o *renderOracle) observe(p *pass, s *step) {
	for k := range s.pairs {
		pr := &s.pairs[k]
		if !pr.hadItem || pr.partial {
			continue // a group compared in part is rendered at checkpoints
		}
		for len(o.texts) <= pr.i {
			o.texts = append(o.texts, renderedItem{})
		}
		kept := &o.texts[pr.i]
		fresh := render.Item(pr.item, s.tl.Now, o.opts)
		stale := kept.item == pr.item && pr.item.Version != 0 && kept.version == pr.item.Version &&
			(!kept.live || kept.now == s.tl.Now)
		if stale && kept.text != fresh {
			p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleIncremental,
				Detail: fmt.Sprintf("after %s item %d changed but kept version %d: an incremental render shows it stale", describe(s.ev), pr.i, pr.item.Version),
				Diff:   fmt.Sprintf("- %q\n+ %q\n", kept.text, fresh)})
		}
		*kept = renderedItem{item: pr.item, version: pr.item.Version, now: s.tl.Now, live: pr.item.Live(), text: fresh}
	}
}
