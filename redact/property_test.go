package redact_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/redact"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// secrets are what the property plants: every kind the redactor knows.
var secrets = []string{openAIKey, anthropicKey, googleKey, githubToken, githubPAT, awsAccessKey, slackToken, jwt, email,
	"/home/dana", "/Users/dana", "Bearer abc123def456ghi789"}

// plant puts secrets into a generated trace: ids (the same id always
// gets the same secret, two ids may share one), text, output, errors,
// batches and arguments.
func plant(t *rapid.T, evs []event.Event) []event.Event {
	out := make([]event.Event, len(evs))
	ids := map[string]string{}
	pick := func(label string) string { return rapid.SampledFrom(secrets).Draw(t, label) }
	mapID := func(id string) string {
		if id == "" {
			return id
		}
		if _, ok := ids[id]; !ok {
			switch rapid.IntRange(0, 2).Draw(t, "id style "+id) {
			case 0:
				ids[id] = id
			case 1:
				ids[id] = id + "-" + pick("id secret")
			default:
				ids[id] = pick("id secret") + "/" + id
			}
		}
		return ids[id]
	}
	for i, ev := range evs {
		ev.Extra = slices.Clone(ev.Extra)
		ev.ID, ev.Parent, ev.Batch = mapID(ev.ID), mapID(ev.Parent), mapID(ev.Batch)
		for _, p := range []*string{&ev.Text, &ev.Output, &ev.Error, &ev.Message} {
			if *p != "" && rapid.Bool().Draw(t, "plant text") {
				*p += " " + pick("text secret")
			}
		}
		if ev.Kind == event.KindToolStart && rapid.Bool().Draw(t, "plant args") {
			var args map[string]any
			if json.Unmarshal(ev.Args, &args) == nil {
				args["token"] = pick("arg secret")
				ev.Args, _ = json.Marshal(args)
			}
		}
		out[i] = ev
	}
	return out
}

// shape is what redaction must not change in a timeline: item kinds,
// flags and levels, tools' ids (mapped), names, statuses, times and
// nesting, and the diagnostics.
func shape(tl *timeline.Timeline, id func(string) string) string {
	var b []byte
	var tool func(tt *timeline.Tool, depth int)
	item := func(it *timeline.Item, depth int) {
		b = fmt.Appendf(b, "%*s%s interrupted=%v level=%s batch=%s\n", depth*2, "", it.Kind, it.Interrupted, it.Level, id(it.Batch))
		if it.Tool != nil {
			tool(it.Tool, depth+1)
		}
		for _, tt := range it.Tools {
			tool(tt, depth+1)
		}
	}
	tool = func(tt *timeline.Tool, depth int) {
		b = fmt.Appendf(b, "%*stool %s parent=%s name=%s status=%s start=%d end=%d dur=%d updates=%d meta=%v batch=%s\n",
			depth*2, "", id(tt.ID), id(tt.Parent), tt.Name, tt.Status, tt.StartT, tt.EndT, tt.DurationMS, tt.UpdateSeq, tt.Meta, id(tt.Batch))
		if tt.Delegation != nil {
			for _, st := range tt.Delegation.Steps {
				b = fmt.Appendf(b, "%*sstep %s\n", depth*2+2, "", st.Status)
			}
		}
		for _, c := range tt.Children {
			item(c, depth+1)
		}
	}
	for _, it := range tl.Items {
		item(it, 0)
	}
	for _, d := range tl.Diagnostics {
		b = fmt.Appendf(b, "diag %d %s %s\n", d.Seq, d.Code, id(d.ID))
	}
	return string(b)
}

func replay(evs []event.Event) *timeline.Timeline {
	eng := engine.New(engine.Options{})
	for i := range evs {
		eng.Apply(&evs[i])
	}
	eng.Finish()
	return eng.Timeline()
}

// TestRedactionKeepsTheTimeline: for generated traces (every fault on)
// with secrets planted in ids, text, output and arguments, the timeline
// replayed from the redacted trace has the same structure, statuses,
// pairing and diagnostics as the original's, ids mapped through the same
// placeholders; and no planted secret is left in the redacted trace.
func TestRedactionKeepsTheTimeline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		sc := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true})
		orig := plant(t, sc.Events)
		red := slices.Clone(orig)
		for i := range red {
			red[i].Extra = slices.Clone(red[i].Extra)
		}
		r := redact.Trace(&event.Header{Trace: event.Version}, red)
		before := shape(replay(orig), r.String)
		after := shape(replay(red), func(s string) string { return s })
		if diff := cmp.Diff(before, after); diff != "" {
			t.Fatalf("seed %d: the timeline changed (-before +after):\n%s", seed, diff)
		}
		var all []byte
		for i := range red {
			all = event.AppendEvent(all, &red[i])
		}
		for _, s := range secrets {
			if containsSecret(all, s) {
				t.Fatalf("seed %d: %q left in the redacted trace", seed, s)
			}
		}
	})
}
