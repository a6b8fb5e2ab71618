package executor

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
)

// Repeat replays evs (with the end of the stream) n times, each on a fresh
// engine from newEngine, and returns an error naming the first replay
// whose screen after some event differs from the first replay's, with a
// (-first +this) diff of the two renders; nil when all n agree. It checks
// that the kit and the adapter drive the library deterministically: a
// settle rule that takes a timeline too early shows within a few hundred
// replays (executor's TestTwoGrantsReplayAlike runs it 1,000 times).
func Repeat(n int, evs []event.Event, newEngine func() *Engine) error {
	var first []string
	for run := range n {
		e := newEngine()
		tls, err := e.Replay(evs, true)
		e.Close()
		if err != nil {
			return fmt.Errorf("replay %d: %w", run+1, err)
		}
		got := make([]string, len(tls))
		for i, tl := range tls {
			got[i] = render.Render(tl, render.Options{Width: 80, Output: true})
		}
		if first == nil {
			first = got
			continue
		}
		for i := range min(len(first), len(got)) {
			if first[i] != got[i] {
				return fmt.Errorf("replay %d differs from the first after %s (-first +this):\n%s", run+1, after(evs, i),
					cmp.Diff(strings.Split(first[i], "\n"), strings.Split(got[i], "\n")))
			}
		}
	}
	return nil
}

// after names the point of the i-th timeline of a replay of evs.
func after(evs []event.Event, i int) string {
	if i >= len(evs) {
		return "the end of the stream"
	}
	return fmt.Sprintf("seq %d (%s)", evs[i].Seq, evs[i].Kind)
}

// Checkpoints is an in-memory checkpoint store, for a library that saves a
// paused run to resume it later (eino's compose.CheckPointStore: Get and
// Set by checkpoint id). The zero value is ready; it is safe for
// concurrent use.
type Checkpoints struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Get returns the checkpoint saved under id, and whether there is one.
func (s *Checkpoints) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.m[id]
	return data, ok, nil
}

// Set saves data as the checkpoint id.
func (s *Checkpoints) Set(_ context.Context, id string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[id] = data
	return nil
}
