package catalog

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptT is testscript.T outside `go test`: the catalog's run and each
// of its scenarios. Scenarios run in parallel, as `go test` runs them
// (testscript calls Parallel), a few at a time; when the run ends, each
// prints one line, in name order: ok, or FAIL with the script's log (its
// failing part, as `go test` prints it) and the command that reproduces
// it.
type scriptT struct {
	out   io.Writer
	strip string // the temporary directory, cut from the scripts' paths

	name            string // the scenario; "" for the run
	failed, skipped bool
	log             strings.Builder

	// The run's scenarios, and what runs them.
	subs []*scriptT
	wg   sync.WaitGroup
	sem  chan struct{} // a place for each scenario that runs at once

	detach chan struct{} // a scenario's: closed when it called Parallel
	held   bool          // a scenario's: it holds a place in sem
}

// newScriptT returns the T of a run printing to out.
func newScriptT(out io.Writer, strip string) *scriptT {
	return &scriptT{out: out, strip: strip, sem: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
}

// runT runs f as the run's test and waits for every scenario it started.
// FailNow and Skip end a test, as in `go test`, by ending its goroutine.
func (t *scriptT) runT(f func(testscript.T)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(t)
	}()
	<-done
	t.wg.Wait()
}

// Run starts one scenario; it returns when the scenario ends or calls
// Parallel.
func (t *scriptT) Run(name string, f func(testscript.T)) {
	sub := &scriptT{name: name, sem: t.sem, detach: make(chan struct{})}
	t.subs = append(t.subs, sub)
	t.wg.Add(1)
	done := make(chan struct{})
	go func() {
		defer t.wg.Done()
		defer close(done)
		defer func() {
			if sub.held {
				<-t.sem
			}
		}()
		f(sub)
	}()
	select {
	case <-done:
	case <-sub.detach:
	}
}

// Parallel lets Run return, then waits for a place to run.
func (t *scriptT) Parallel() {
	close(t.detach)
	t.sem <- struct{}{}
	t.held = true
}

// summary prints a line per scenario, in the order they were started,
// then the counts, and returns them.
func (t *scriptT) summary() Result {
	var r Result
	for _, sub := range t.subs {
		log := strings.ReplaceAll(strings.TrimSpace(sub.log.String()), t.strip, "")
		switch {
		case sub.failed:
			r.Failed++
			t.printFailure(sub.name, log)
		case sub.skipped:
			r.Skipped++
			fmt.Fprintf(t.out, "skip  %s: %s\n", sub.name, log)
		default:
			r.Passed++
			fmt.Fprintf(t.out, "ok    %s\n", sub.name)
		}
	}
	if t.failed { // the run itself failed (e.g. a script could not be read)
		r.Broken = true
		fmt.Fprintf(t.out, "FAIL  catalog: %s\n", strings.TrimSpace(t.log.String()))
	}
	counts := fmt.Sprintf("%d scenarios: %d passed, %d failed", r.Passed+r.Failed+r.Skipped, r.Passed, r.Failed)
	if r.Skipped > 0 {
		counts += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	fmt.Fprintln(t.out, counts)
	return r
}

// printFailure prints a failed scenario's line, its log indented, and
// the command that reproduces it.
func (t *scriptT) printFailure(name, log string) {
	fmt.Fprintf(t.out, "FAIL  %s\n", name)
	for line := range strings.Lines(log) {
		if line = strings.TrimSuffix(line, "\n"); line != "" {
			line = "      " + line
		}
		fmt.Fprintln(t.out, line)
	}
	fmt.Fprintf(t.out, "      reproduce: go test ./cmd/toolsim -run 'TestScenarios/^%s$'\n", name)
}

// Log adds to the test's log, as testing.T.Log does.
func (t *scriptT) Log(args ...any) { fmt.Fprintln(&t.log, args...) }

// Fatal logs args and ends the test as failed.
func (t *scriptT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

// FailNow ends the test as failed.
func (t *scriptT) FailNow() {
	t.failed = true
	runtime.Goexit()
}

// Skip logs args and ends the test as skipped.
func (t *scriptT) Skip(args ...any) {
	t.Log(args...)
	t.skipped = true
	runtime.Goexit()
}

// Verbose is false: a passing script's log is not kept.
func (t *scriptT) Verbose() bool { return false }
