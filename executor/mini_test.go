package executor

import (
	"context"
	"errors"
	"iter"
	"runtime"
	"slices"
	"sync"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/sim"
)

// mini is a small executor written the way Go agent libraries are, with
// its adapter: it streams the model's answer, runs the answer's calls on
// goroutines (at most limit at once, 0: all), reports each result as its
// tool returns, and asks the model again.
type mini struct {
	limit      int
	reverse    bool // start the calls' goroutines in reverse call order
	dropFailed bool // the planted adapter bug: a failed result never reaches the UI
	nested     bool // run the calls from inside the stream's range, when the end part comes
	merged     bool // report a step's results at its end, in call order, as ADK does (Config.AtStepEnd)
	tasks      bool // start the calls through Turn.RunTasks
	pauses     bool // (merged) ask permissions by pausing once the step's calls returned (Config.PauseToAsk)
	eager      bool // (pauses) run the granted calls again on goroutines, reporting each result as its tool returns
	anyOrder   bool // (pauses) take the answers through Turn.Resume, as the trace gives them
	onlyOK     bool // report only results that succeeded (Config.ReportsOnlySuccess: UI.Interrupted ends the live rows)
	push       bool // the model pushes its parts to the app loop on a goroutine of its own (Config.AwaitShown)
}

func (m mini) Run(ctx context.Context, turn *Turn) error {
	for {
		calls, ran, err := m.answer(ctx, turn)
		if err != nil {
			turn.UI.Interrupted()
			return err
		}
		if len(calls) == 0 {
			turn.UI.Done()
			return nil
		}
		if !ran {
			m.runCalls(ctx, turn, calls)
		}
		if err := ctx.Err(); err != nil {
			turn.UI.Interrupted()
			return err
		}
	}
}

// answer streams one model answer to the UI and returns its calls, and
// whether it ran them already (nested).
func (m mini) answer(ctx context.Context, turn *Turn) ([]Part, bool, error) {
	var calls []Part
	var err error
	ran := false
	for p := range m.parts(ctx, turn) {
		switch p.Kind {
		case PartText:
			turn.UI.Text(p.Text)
		case PartThinking:
			turn.UI.Thinking(p.Text)
		case PartCall:
			turn.UI.Call(p.ID, p.Name)
			calls = append(calls, p)
		case PartEnd:
			err = p.Err
			if m.nested && err == nil && len(calls) > 0 {
				m.runCalls(ctx, turn, calls)
				ran = true
			}
		}
	}
	return calls, ran, err
}

func (m mini) runCalls(ctx context.Context, turn *Turn, calls []Part) {
	if m.merged {
		m.runMerged(ctx, turn, calls)
		return
	}
	if m.reverse {
		calls = slices.Clone(calls)
		slices.Reverse(calls)
	}
	slots := make(chan struct{}, max(m.limit, len(calls)))
	if m.limit > 0 {
		slots = make(chan struct{}, m.limit)
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			runtime.Gosched()
			out := turn.Tool(ctx, c.ID)
			if m.onlyOK && out.Err != nil {
				return // the library reports nothing of it
			}
			defer turn.Reported(c.ID)
			if m.dropFailed && out.Err != nil && !errors.Is(out.Err, context.Canceled) && !errors.Is(out.Err, ErrDenied) {
				return
			}
			turn.UI.Result(c.ID, out.Output, out.Err)
		})
	}
	wg.Wait()
}

// runMerged runs every call at once, each outcome in its call's slot, and
// reports them all once the last returned, in call order. The later a
// call, the sooner its goroutine tries to enter its tool (reverse), unless
// Turn.RunTasks starts them (tasks).
func (m mini) runMerged(ctx context.Context, turn *Turn, calls []Part) {
	outs := make([]Outcome, len(calls))
	tasks := make([]func(context.Context), len(calls))
	for i, c := range calls {
		tasks[i] = func(ctx context.Context) {
			if m.reverse {
				for range len(calls) - i {
					runtime.Gosched()
				}
			}
			outs[i] = turn.Tool(ctx, c.ID)
		}
	}
	if m.tasks {
		turn.RunTasks(ctx, tasks)
	} else {
		var wg sync.WaitGroup
		for _, task := range tasks {
			wg.Go(func() { task(ctx) })
		}
		wg.Wait()
	}
	var asked []int
	for i, c := range calls {
		if outs[i].Asked {
			asked = append(asked, i)
			continue
		}
		turn.UI.Result(c.ID, outs[i].Output, outs[i].Err)
		turn.Reported(c.ID)
	}
	if len(asked) > 0 {
		m.ask(ctx, turn, calls, asked)
	}
}

// ask is the pause (pauses): every request shown, each answer waited for
// in call order, then the granted calls run again, their results reported
// at the end, and the denied ones reported denied.
func (m mini) ask(ctx context.Context, turn *Turn, calls []Part, asked []int) {
	if m.anyOrder {
		m.resume(ctx, turn, calls, asked)
		return
	}
	for _, i := range asked {
		turn.UI.Asked(calls[i].ID)
	}
	var granted []Part
	for _, i := range asked {
		switch err := turn.Answer(ctx, calls[i].ID); {
		case err == nil:
			turn.UI.Approved(calls[i].ID)
			granted = append(granted, calls[i])
		case errors.Is(err, ErrDenied):
			turn.UI.Result(calls[i].ID, "", err)
			turn.Reported(calls[i].ID)
		default:
			return
		}
	}
	switch {
	case len(granted) > 0 && m.eager:
		each := m
		each.merged, each.reverse = false, true
		each.runCalls(ctx, turn, granted)
	case len(granted) > 0:
		m.runMerged(ctx, turn, granted)
	}
}

// miniOptions is what mini's UI supports.
var miniOptions = Options(sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureThinking, sim.FeatureUser,
	sim.FeatureCancel, sim.FeaturePermissions}, contract.Contract{Guarantees: contract.Executor})

// resume is ask through Turn.Resume: the answers shown as they come, then
// the denied calls reported, and the granted ones run again.
func (m mini) resume(ctx context.Context, turn *Turn, calls []Part, asked []int) {
	var ids []string
	for _, i := range asked {
		ids = append(ids, calls[i].ID)
	}
	var granted []Part
	_ = turn.Resume(ctx, func(answers map[string]error) ([]string, error) {
		if answers == nil {
			return ids, nil
		}
		for _, i := range asked {
			if err := answers[calls[i].ID]; err != nil {
				turn.UI.Result(calls[i].ID, "", err)
				turn.Reported(calls[i].ID)
			} else {
				granted = append(granted, calls[i])
			}
		}
		return nil, nil
	})
	if len(granted) > 0 {
		m.runMerged(ctx, turn, granted)
	}
}

// parts is the model's answer as the app loop gets it: pulled from
// Turn.Stream, or (push) pushed by a goroutine of the library's through a
// channel, the app telling the kit each part was shown (Turn.Shown).
func (m mini) parts(ctx context.Context, turn *Turn) iter.Seq[Part] {
	if !m.push {
		return turn.Stream(ctx)
	}
	return func(yield func(Part) bool) {
		ch := make(chan Part)
		go func() {
			defer close(ch)
			for p := range turn.Stream(ctx) {
				ch <- p
			}
		}()
		for p := range ch {
			yield(p)
			if p.Kind != PartEnd {
				turn.Shown()
			}
		}
	}
}
