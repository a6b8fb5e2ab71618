package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// catalogT is testscript.T outside `go test`: the catalog's run and each
// of its scenarios. Scenarios run in parallel, as `go test` runs them
// (testscript calls Parallel), a few at a time; when the run ends, each
// prints one line, in name order: ok, or FAIL with the script's log (its
// failing part, as `go test` prints it) and the command that reproduces
// it.
type catalogT struct {
	out   io.Writer
	strip string // the temporary directory, cut from the scripts' paths

	name            string // the scenario; "" for the run
	failed, skipped bool
	log             strings.Builder

	// The run's scenarios, and what runs them.
	subs []*catalogT
	wg   sync.WaitGroup
	sem  chan struct{} // a place for each scenario that runs at once

	detach chan struct{} // a scenario's: closed when it called Parallel
	held   bool          // a scenario's: it holds a place in sem
}

// newCatalogT returns the T of a run printing to out.
func newCatalogT(out io.Writer, strip string) *catalogT {
	return &catalogT{out: out, strip: strip, sem: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
}

// runT runs f as the run's test and waits for every scenario it started.
// FailNow and Skip end a test, as in `go test`, by ending its goroutine.
func (t *catalogT) runT(f func(testscript.T)) {
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
func (t *catalogT) Run(name string, f func(testscript.T)) {
	sub := &catalogT{name: name, sem: t.sem, detach: make(chan struct{})}
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
func (t *catalogT) Parallel() {
	close(t.detach)
	t.sem <- struct{}{}
	t.held = true
}

// summary prints a line per scenario, in the order they were started,
// then the counts, and returns the exit status: 1 when a scenario failed
// or none passed.
func (t *catalogT) summary() int {
	passed, failed, skipped := 0, 0, 0
	for _, sub := range t.subs {
		log := strings.ReplaceAll(strings.TrimSpace(sub.log.String()), t.strip, "")
		switch {
		case sub.failed:
			failed++
			fmt.Fprintf(t.out, "FAIL  %s\n", sub.name)
			for line := range strings.Lines(log) {
				if line = strings.TrimSuffix(line, "\n"); line != "" {
					line = "      " + line
				}
				fmt.Fprintln(t.out, line)
			}
			fmt.Fprintf(t.out, "      reproduce: go test ./cmd/toolsim -run 'TestScenarios/^%s$'\n", sub.name)
		case sub.skipped:
			skipped++
			fmt.Fprintf(t.out, "skip  %s: %s\n", sub.name, log)
		default:
			passed++
			fmt.Fprintf(t.out, "ok    %s\n", sub.name)
		}
	}
	if t.failed { // the run itself failed (e.g. a script could not be read)
		fmt.Fprintf(t.out, "FAIL  catalog: %s\n", strings.TrimSpace(t.log.String()))
	}
	counts := fmt.Sprintf("%d scenarios: %d passed, %d failed", passed+failed+skipped, passed, failed)
	if skipped > 0 {
		counts += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintln(t.out, counts)
	if t.failed || failed > 0 || passed == 0 {
		return exitFail
	}
	return exitOK
}

// Log adds to the test's log, as testing.T.Log does.
func (t *catalogT) Log(args ...any) { fmt.Fprintln(&t.log, args...) }

// Fatal logs args and ends the test as failed.
func (t *catalogT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

// FailNow ends the test as failed.
func (t *catalogT) FailNow() {
	t.failed = true
	runtime.Goexit()
}

// Skip logs args and ends the test as skipped.
func (t *catalogT) Skip(args ...any) {
	t.Log(args...)
	t.skipped = true
	runtime.Goexit()
}

// Verbose is false: a passing script's log is not kept.
func (t *catalogT) Verbose() bool { return false }
