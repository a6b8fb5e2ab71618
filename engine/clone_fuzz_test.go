package engine_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
)

// FuzzClone replays whatever events arbitrary bytes decode to, cloning the
// engine after every few events: no clone changes once taken, the engine
// cloned all along ends as a fresh engine fed the same events, and so does
// a clone taken midway and fed the rest.
func FuzzClone(f *testing.F) {
	for _, data := range scenarioFiles(f) {
		f.Add(data, uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, every uint8) {
		evs := looseEvents(data, 2000)
		step := int(every%8) + 1
		e, fresh := engine.New(engine.Options{}), engine.New(engine.Options{})
		type snap struct {
			e    *engine.Engine
			at   int
			json string
		}
		var clones []snap
		for i := range evs {
			e.Apply(&evs[i])
			fresh.Apply(&evs[i])
			if i%step == 0 {
				clones = append(clones, snap{e.Clone(), i + 1, timelineJSON(e)})
			}
		}
		for _, c := range clones {
			if got := timelineJSON(c.e); got != c.json {
				t.Fatalf("the clone taken after %d events changed:\nwas %s\nnow %s", c.at, c.json, got)
			}
		}
		if len(clones) > 0 {
			mid := clones[len(clones)/2]
			for i := mid.at; i < len(evs); i++ {
				mid.e.Apply(&evs[i])
			}
			mid.e.Finish()
		}
		e.Finish()
		fresh.Finish()
		want := timelineJSON(fresh)
		if got := timelineJSON(e); got != want {
			t.Fatalf("the engine cloned all along differs from a fresh one:\ngot  %s\nwant %s", got, want)
		}
		if len(clones) > 0 {
			if got := timelineJSON(clones[len(clones)/2].e); got != want {
				t.Fatalf("a clone fed the rest differs from a fresh engine:\ngot  %s\nwant %s", got, want)
			}
		}
	})
}
