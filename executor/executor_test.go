package executor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/report"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// trace numbers events: seq from 1, t = 10×seq.
func trace(evs ...event.Event) []event.Event {
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(10*(i+1))
	}
	return evs
}

func start(id string) event.Event {
	return event.Event{Kind: event.KindToolStart, ID: id, Name: "grep", Args: []byte("{}")}
}
func done(id string, ok bool) event.Event {
	return event.Event{Kind: event.KindToolDone, ID: id, OK: ok, Output: "out " + id, Error: map[bool]string{false: "boom"}[ok]}
}
func perm(id, state string) event.Event {
	return event.Event{Kind: event.KindPermission, ID: id, State: state}
}

var (
	assistant = event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	turnEnd   = event.Event{Kind: event.KindTurnEnd}
	cancel    = event.Event{Kind: event.KindCancel, Reason: "esc"}
)

// outline is a timeline as one line per item.
func outline(tl *timeline.Timeline) []string {
	var out []string
	for _, it := range tl.Items {
		switch {
		case it.Tool != nil:
			out = append(out, fmt.Sprintf("tool %s %s out=%q err=%q", it.Tool.ID, it.Tool.Status, it.Tool.Output, it.Tool.Error))
		default:
			out = append(out, fmt.Sprintf("%s %q interrupted=%v", it.Kind, it.Text, it.Interrupted))
		}
	}
	return out
}

// TestTimelines replays traces through mini, in the library's goroutine
// orders that differ (calls started in call order and in reverse), and
// compares what the UI shows after the last event and after each of them.
func TestTimelines(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		nested bool // the library runs the calls from inside the stream's range
		merged bool // ... reports a step's results at its end, its calls started through Turn.RunTasks
		pauses bool // ... (merged) pauses the run to ask, once the step's calls returned
		events []event.Event
		want   []string
	}{
		{
			name:   "results in reverse order",
			events: trace(assistant, start("a"), start("b"), start("c"), done("c", true), done("b", false), done("a", true), turnEnd),
			want: []string{`tool a ok out="out a" err=""`, `tool b failed out="" err="boom"`, `tool c ok out="out c" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name:   "cancel while two tools run",
			events: trace(assistant, event.Event{Kind: event.KindText, Text: "Let me"}, start("a"), start("b"), done("a", true), cancel, turnEnd),
			want: []string{`assistant "Let me" interrupted=false`, `tool a ok out="out a" err=""`, `tool b interrupted out="" err=""`,
				`notice "esc" interrupted=false`},
		},
		{
			name:   "cancel while text streams",
			events: trace(assistant, event.Event{Kind: event.KindText, Text: "Let"}, cancel, turnEnd),
			want:   []string{`assistant "Let" interrupted=true`, `notice "esc" interrupted=false`},
		},
		{
			name: "permission asked inside the tool, granted then denied",
			events: trace(assistant, start("a"), start("b"), perm("a", "asked"), perm("a", "granted"), perm("b", "asked"), perm("b", "denied"),
				done("a", true), turnEnd),
			want: []string{`tool a ok out="out a" err=""`, `tool b denied out="" err=""`, `separator "Turn complete" interrupted=false`},
		},
		{
			name:   "a result for a call still waiting for a slot is held until it runs",
			limit:  1,
			events: trace(assistant, start("a"), start("b"), done("b", true)),
			want:   []string{`tool a running out="" err=""`, `tool b running out="" err=""`},
		},
		{
			name:   "calls run from inside the stream's range",
			nested: true,
			events: trace(assistant, start("a"), start("b"), done("b", true), done("a", false), turnEnd),
			want: []string{`tool a failed out="" err="boom"`, `tool b ok out="out b" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name:   "one id on two calls, results at step end, calls started through RunTasks",
			merged: true,
			events: trace(assistant, start("a"), start("a"), done("a", true), done("a", false), turnEnd),
			want: []string{`tool a running out="" err=""`, `tool a failed out="" err="boom"`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name:   "asked by pausing once the step's other calls returned, granted",
			pauses: true,
			events: trace(assistant, start("a"), start("b"), perm("a", "asked"), done("b", true), perm("a", "granted"), done("a", true), turnEnd),
			want: []string{`tool a ok out="out a" err=""`, `tool b ok out="out b" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name:   "asked by pausing, the answer before the other call returned, denied",
			pauses: true,
			events: trace(assistant, start("a"), start("b"), perm("a", "asked"), perm("a", "denied"), done("b", false), turnEnd),
			want: []string{`tool a denied out="" err=""`, `tool b failed out="" err="boom"`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name:   "asked by pausing, cancelled while waiting for the answer",
			pauses: true,
			events: trace(assistant, start("a"), perm("a", "asked"), cancel, turnEnd),
			want:   []string{`tool a pending out="" err=""`, `notice "esc" interrupted=false`},
		},
		{
			name:   "two steps",
			events: trace(assistant, start("a"), done("a", true), event.Event{Kind: event.KindText, Text: "ok"}, start("b"), done("b", true), turnEnd),
			want: []string{`tool a ok out="out a" err=""`, `assistant "ok" interrupted=false`, `tool b ok out="out b" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first []*timeline.Timeline
			for _, reverse := range []bool{false, true} {
				merged := tt.merged || tt.pauses
				e := New(mini{limit: tt.limit, reverse: reverse && tt.limit == 0, nested: tt.nested, merged: merged, tasks: merged, pauses: tt.pauses},
					Config{Parallel: tt.limit, AtStepEnd: merged, PauseToAsk: tt.pauses})
				tls, err := e.Replay(tt.events, true)
				e.Close()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, outline(tls[len(tls)-1])); diff != "" {
					t.Errorf("reverse=%v: final timeline (-want +got):\n%s", reverse, diff)
				}
				if first == nil {
					first = tls
					continue
				}
				for i := range tls {
					if diff := cmp.Diff(outline(first[i]), outline(tls[i])); diff != "" {
						t.Errorf("after event %d, goroutines in reverse order changed the timeline (-call order +reverse):\n%s", i+1, diff)
					}
				}
			}
		})
	}
}

// TestApplyEndsAnswersLazily: without the trace ahead, an answer ends when
// the next event is not a call of its batch.
func TestApplyEndsAnswersLazily(t *testing.T) {
	e := New(mini{}, Config{})
	defer e.Close()
	for _, ev := range trace(assistant, start("a"), start("b"), done("b", true), done("a", true), turnEnd) {
		e.Apply(&ev)
	}
	e.Finish()
	want := []string{`tool a ok out="out a" err=""`, `tool b ok out="out b" err=""`, `separator "Turn complete" interrupted=false`}
	if diff := cmp.Diff(want, outline(e.Timeline())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// silent runs its tools and never reports their results.
type silent struct{}

func (silent) Run(ctx context.Context, turn *Turn) error {
	var calls []Part
	for p := range turn.Stream(ctx) {
		if p.Kind == PartCall {
			turn.UI.Call(p.ID, p.Name)
			calls = append(calls, p)
		}
	}
	for _, c := range calls {
		turn.Tool(ctx, c.ID)
	}
	<-ctx.Done()
	return ctx.Err()
}

// TestStuckLibrary: a library that never reports a result is an engine
// failure naming the call, never a hang. It runs in a synctest bubble:
// Patience's timer is the bubble's fake clock, which moves only once every
// goroutine of the bubble (the kit's and the library's) is blocked, so the
// settles before the stuck one cannot run out of it, however loaded the
// machine, and the stuck one runs out at once. The library runs on
// goroutines of the bubble, not on the kit's pool of runners.
func TestStuckLibrary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := New(silent{}, Config{Patience: 250 * time.Millisecond})
		e.spawn = func(f func()) { go f() }
		defer e.Close()
		_, err := e.Replay(trace(assistant, start("a"), done("a", true), turnEnd), true)
		want := `seq 3: the library did not settle within 250ms: the library neither asked the model again nor returned; call "a" returned from its tool but its result was never reported`
		if err == nil || err.Error() != want {
			t.Errorf("got error %v, want %s", err, want)
		}
	})
}

// TestSuite: mini's UI holds every oracle inside the executor contract.
func TestSuite(t *testing.T) {
	miniSuite.Run(t)
}

// miniSuite runs mini, five calls at a time.
var miniSuite = Suite{New: func() harness.Engine { return New(mini{limit: 5}, Config{Parallel: 5}) }, Options: miniOptions, Seeds: 200}

// BenchmarkMini is the kit's own cost: the campaign's rate on mini, a
// library that does nothing but what the kit asks (go test -run '^$'
// -bench Mini ./executor).
func BenchmarkMini(b *testing.B) { miniSuite.Bench(b) }

// TestPlantedDrop: an adapter that drops a failed result fails with the
// subtest of its bug class, naming the signature, the repro and the
// command that reruns it.
func TestPlantedDrop(t *testing.T) {
	t.Chdir(t.TempDir())
	c := campaign.Campaign{Seeds: 60, Check: miniOptions, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := c.Run(func() harness.Engine { return New(mini{dropFailed: true}, Config{}) })
	if err != nil {
		t.Fatal(err)
	}
	fs := failures(rep, c, "TestFantasy/campaign")
	var classes []string
	for _, f := range fs {
		classes = append(classes, f.class)
	}
	if diff := cmp.Diff([]string{"a result: tool status done → live"}, classes); diff != "" {
		t.Fatalf("classes (-want +got):\n%s", diff)
	}
	for _, want := range []string{`signature "result: tool status failed → running"`,
		"repro: testdata/toolsim/TestFantasy_campaign/seed-", ".min.jsonl",
		"reproduce (from the module's root): go test . -run '^TestFantasy$/^campaign$' -toolsim.seed="} {
		if !strings.Contains(fs[0].message, want) {
			t.Errorf("the class subtest's message lacks %q:\n%s", want, fs[0].message)
		}
	}
	if got, want := tally(rep, fs, false), "1 bug class failing below (a subtest each), 0 other bug classes in the baseline"; got != want {
		t.Errorf("the log's count %q, want %q: as many classes as failing subtests", got, want)
	}
	base := campaign.BaselineOf(rep, nil)
	c.Baseline = base
	if rep, err = c.Run(func() harness.Engine { return New(mini{dropFailed: true}, Config{}) }); err != nil {
		t.Fatal(err)
	}
	fs = failures(rep, c, "TestFantasy/campaign")
	if got, want := tally(rep, fs, false), "0 bug classes failing below (a subtest each), 1 other bug class in the baseline"; len(fs) != 0 || got != want {
		t.Errorf("with its baseline: %d failing subtests, the log's count %q, want none and %q", len(fs), got, want)
	}
}

// TestSuiteOptions: a baseline file not written yet is no baseline (the
// campaign runs and passes on a correct library); JSON gets the
// campaign's report; MaxTime stops handing out seeds, and a campaign it
// stopped is not failed for the fault classes it did not reach.
func TestSuiteOptions(t *testing.T) {
	dir := t.TempDir()
	json := filepath.Join(dir, "report.jsonl")
	s := Suite{New: miniSuite.New, Options: miniOptions, Seeds: 1_000_000, MaxTime: time.Nanosecond, NoShrink: true,
		Baseline: filepath.Join(dir, "not-yet.json"), JSON: json}
	s.Run(t)
	data, err := os.ReadFile(json)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := report.ReadJSON(bytes.NewReader(data), json)
	if err != nil || len(lines) != 1 {
		t.Fatalf("want one summary line, got %d (%v):\n%s", len(lines), err, data)
	}
	if n := lines[0].Result.Scenarios; n >= s.Seeds {
		t.Errorf("the summary counts %d scenarios: MaxTime did not stop the campaign", n)
	}
}

// TestPausedAsksSettle: a library that merges a step's results and pauses
// the run to ask (ADK's shape: Config.AtStepEnd, Config.PauseToAsk,
// calls started through Turn.RunTasks) settles after every event of a
// campaign and gives the same timelines every time: its UI fails oracles
// (results shown late), never by a hang, a panic or a second replay that
// differs.
func TestPausedAsksSettle(t *testing.T) {
	for _, anyOrder := range []bool{false, true} {
		t.Run(fmt.Sprintf("answers through Resume: %v", anyOrder), func(t *testing.T) {
			c := campaign.Campaign{Seeds: 150, NoShrink: true, Check: miniOptions, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
			rep, err := c.Run(func() harness.Engine {
				return New(mini{merged: true, tasks: true, pauses: true, anyOrder: anyOrder}, Config{AtStepEnd: true, PauseToAsk: true})
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				switch f.Violation.Oracle {
				case harness.OracleEngine, harness.OraclePanic, harness.OracleDeterminism, harness.OracleNondeterminism:
					t.Errorf("seed %d: %s", f.Seed, f.Violation)
				}
			}
		})
	}
}

// TestDocumentedSetApart: declared documented behaviours take a
// library's designs out of its bugs and list them in the run's log, with
// what was seen only after them; and their limit: a different bug that
// fails first the same way (a failed result never shown, under
// results-at-step-end) is set apart with them, and is seen only in that
// list.
func TestDocumentedSetApart(t *testing.T) {
	adk := func() harness.Engine {
		return New(mini{merged: true, tasks: true, pauses: true}, Config{AtStepEnd: true, PauseToAsk: true})
	}
	drop := func() harness.Engine { return New(mini{dropFailed: true}, Config{}) }
	all := []contract.Behaviour{contract.ResultsAtStepEnd, contract.ApprovalAfterResults, contract.CancelDropsInFlight}
	tests := []struct {
		name       string
		engine     func() harness.Engine
		documented []contract.Behaviour
		byDesign   []contract.Behaviour
		bug        string   // a signature counted as a bug, or "" for none
		notBug     string   // a signature not counted
		log        []string // substrings of the log line
		notLog     string   // a substring the log line must not have
	}{
		{"step-end results, undeclared", adk, nil, nil, "result: tool status ok → running", "", nil, ""},
		{"step-end results, declared", adk, all, nil, "", "result: tool status ok → running",
			[]string{`documented behaviour, not counted: "result: tool status ok → running"`, "(results-at-step-end)", "(approval-after-results)"},
			"by design"},
		{"step-end results, by design", adk, nil, all, "", "result: tool status ok → running",
			[]string{`behaviour by design, undocumented, not counted: "result: tool status ok → running"`, "(results-at-step-end)"},
			"documented behaviour"},
		{"a dropped result, undeclared", drop, nil, nil, "result: tool status failed → running", "", nil, ""},
		{"a dropped result under results-at-step-end", drop, all[:1], nil, "", "result: tool status failed → running",
			[]string{"seen only after these", `"turn end: tool left running"`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := miniOptions
			opts.Contract.Documented = tt.documented
			opts.Contract.ByDesign = tt.byDesign
			c := campaign.Campaign{Seeds: 100, Check: opts, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
			rep, err := c.Run(tt.engine)
			if err != nil {
				t.Fatal(err)
			}
			bugs := map[string]bool{}
			for _, cl := range rep.Classes() {
				for _, f := range cl.Findings {
					bugs[f.Signature] = true
				}
			}
			if tt.bug != "" && !bugs[tt.bug] {
				t.Errorf("%q is not counted as a bug: %s", tt.bug, rep.Bugs())
			}
			if tt.notBug != "" && bugs[tt.notBug] {
				t.Errorf("%q is counted as a bug", tt.notBug)
			}
			line := rep.Documented()
			if tt.log == nil && line != "" {
				t.Errorf("log line %q, want none", line)
			}
			for _, want := range tt.log {
				if !strings.Contains(line, want) {
					t.Errorf("log line %q lacks %s", line, want)
				}
			}
			if tt.notLog != "" && strings.Contains(line, tt.notLog) {
				t.Errorf("log line %q has %q", line, tt.notLog)
			}
		})
	}
}
