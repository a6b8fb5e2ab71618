package harness

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// crasher is implemented by engines that can be killed where they stand
// and resumed: an external engine that declares the crash capability (a
// real agent app under toolsim-agent --resume).
type crasher interface {
	canCrash() bool
	// crash kills and resumes the engine, and returns the timeline the
	// resumed engine shows.
	crash() (*timeline.Timeline, error)
}

// checkCrash is the crash oracle (the crash fault): a fresh engine that
// can crash gets the case's first CrashAt events, some tool running, and
// is then killed and resumed. On the resumed timeline no call may show
// finished (ok, failed) that had no result before the crash, no call may
// show running or pending (the process that would have answered it is
// gone), and every call started before the crash must still have its
// row: a user who saw a call run expects to find it, interrupted, after
// the resume. An engine failure
// while the first events are sent is left to the main check, which sends
// them too; a failure to come back is a violation.
func (c *Case) checkCrash(newEngine func() Engine) []Violation {
	if c.CrashAt <= 0 || c.CrashAt > len(c.Events) {
		return nil
	}
	eng := newEngine()
	defer closeEngine(eng)
	cr, ok := eng.(crasher)
	if !ok || !cr.canCrash() {
		return nil
	}
	prefix := c.Events[:c.CrashAt]
	seq := prefix[len(prefix)-1].Seq
	if !feedPrefix(eng, prefix) {
		return nil
	}
	tl, err := cr.crash()
	if err != nil {
		msg := err.Error()
		if _, own, ok := strings.Cut(msg, engineproto.AnsweredError); ok {
			msg = own
		}
		return []Violation{{Seq: seq, Oracle: OracleCrash, Detail: "the engine did not come back after the crash: " + msg}}
	}
	if d := crashDiffers(atCrash(prefix), tl); d != "" {
		return []Violation{{Seq: seq, Oracle: OracleCrash, Detail: d}}
	}
	return nil
}

// feedPrefix sends the events before a crash, in one batch when the
// engine has a batch mode, and reports whether the engine took them all.
func feedPrefix(eng Engine, prefix []event.Event) bool {
	failed := func() bool {
		e, ok := eng.(interface{ Err() error })
		return ok && e.Err() != nil
	}
	if r, ok := eng.(replayer); ok {
		if _, err := r.Replay(prefix, false); err == nil || err != errNoBatch {
			return err == nil && !failed()
		}
	}
	for i := range prefix {
		eng.Apply(&prefix[i])
		if failed() {
			return false
		}
	}
	return true
}

// crashTool is a call as SPEC shows it when the crash comes.
type crashTool struct {
	id, name string
	status   timeline.Status
}

// atCrash is every call SPEC's reference engine shows after the events
// before the crash, in timeline order.
func atCrash(prefix []event.Event) []crashTool {
	ref := engine.New(engine.Options{})
	for i := range prefix {
		ref.Apply(&prefix[i])
	}
	var out []crashTool
	for _, it := range ref.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			out = append(out, crashTool{t.ID, t.Name, t.Status})
			return true
		})
	}
	return out
}

// crashDiffers names the first call of the resumed timeline that breaks
// the crash oracle, else the first call before the crash with no row
// after it, or "". The k-th row of an id and name is the k-th call of
// them before the crash.
func crashDiffers(before []crashTool, resumed *timeline.Timeline) string {
	seen := map[[2]string]int{}
	var out string
	for _, it := range resumed.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			key := [2]string{t.ID, t.Name}
			k := seen[key]
			seen[key]++
			switch {
			case !t.Status.Terminal():
				out = fmt.Sprintf("call %q still shows %s after the crash and resume: nothing will answer it", t.ID, t.Status)
			case t.Status == timeline.StatusOK || t.Status == timeline.StatusFailed:
				if b, ok := nth(before, key, k); ok && !b.status.Terminal() {
					out = fmt.Sprintf("call %q shows %s after the crash, but its result never came (%s when it crashed)", t.ID, t.Status, b.status)
				}
			}
			return out == ""
		})
		if out != "" {
			return out
		}
	}
	k := map[[2]string]int{}
	for _, b := range before {
		key := [2]string{b.id, b.name}
		if k[key]++; seen[key] < k[key] {
			return fmt.Sprintf("the row of call %q is gone after the crash and resume (%s when it crashed)", b.id, b.status)
		}
	}
	return ""
}

// nth is the k-th call (0-based) of an id and name.
func nth(tools []crashTool, key [2]string, k int) (crashTool, bool) {
	for _, t := range tools {
		if t.id == key[0] && t.name == key[1] {
			if k == 0 {
				return t, true
			}
			k--
		}
	}
	return crashTool{}, false
}
