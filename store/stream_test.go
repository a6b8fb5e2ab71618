package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
)

// TestLogWriterMatchesPersist: the streaming writer writes the very log
// Persist writes, for every single fault and all of them together.
func TestLogWriterMatchesPersist(t *testing.T) {
	sets := []fault.List{nil, fault.Log}
	for _, f := range fault.Log {
		sets = append(sets, fault.List{f})
	}
	for _, faults := range sets {
		for seed := range uint64(40) {
			evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
			opts := store.Options{Faults: faults, Seed: seed}
			want := store.Persist(evs, opts).Log
			var got bytes.Buffer
			lw := store.NewLogWriter(&got, opts, len(evs))
			for i := range evs {
				if err := lw.Event(&evs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := lw.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Fatalf("faults %v seed %d: log (-Persist +LogWriter):\n%s", faults, seed, diff)
			}
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestLogWriterReportsWriteErrors(t *testing.T) {
	evs := sim.Generate(1, sim.Options{}).Events
	lw := store.NewLogWriter(failWriter{}, store.Options{}, len(evs))
	var err error
	for i := range evs {
		if err = lw.Event(&evs[i]); err != nil {
			break
		}
	}
	if err == nil {
		err = lw.Close()
	}
	if fmt.Sprint(err) != "disk full" {
		t.Errorf("err = %v", err)
	}
}

// wide is one turn of n tool calls that stay live: the widest timeline.
func wide(n int) []event.Event {
	evs := []event.Event{{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"}}
	for i := range n {
		evs = append(evs, event.Event{Seq: int64(i + 2), T: int64(i / 100), Kind: event.KindToolStart, ID: fmt.Sprintf("call_%d", i), Name: "read", Args: []byte(fmt.Sprintf(`{"path":"src/file_%d.go"}`, i))})
	}
	return evs
}

// BenchmarkPersistWide: persisting a timeline of 100,000 live tools,
// whole (Persist, which also works out Expected) and streamed
// (LogWriter, what `toolsim persist` uses). Compare B/op: the streamed
// one does not grow with the trace.
func BenchmarkPersistWide(b *testing.B) {
	evs := wide(100_000)
	b.Run("Persist", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			store.Persist(evs, store.Options{})
		}
	})
	b.Run("LogWriter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lw := store.NewLogWriter(io.Discard, store.Options{}, len(evs))
			for i := range evs {
				lw.Event(&evs[i])
			}
			lw.Close()
		}
	})
}

// next yields evs one by one, then fails with err (io.EOF: a clean end).
func next(evs []event.Event, err error) func(*event.Event) error {
	return func(ev *event.Event) error {
		if len(evs) == 0 {
			return err
		}
		*ev, evs = evs[0], evs[1:]
		return nil
	}
}

// TestStreamMatchesPersist: Stream writes the log Persist writes, the kill
// fault (which needs the event count) included; a read error comes back
// after the records of the events before it.
func TestStreamMatchesPersist(t *testing.T) {
	tests := []struct {
		name   string
		faults fault.List
	}{
		{"no faults", nil},
		{"kill", fault.List{fault.Kill}},
		{"every log fault", fault.Log},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(20) {
				evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
				opts := store.Options{Faults: tt.faults, Seed: seed}
				var got bytes.Buffer
				if err := store.Stream(&got, next(evs, io.EOF), opts); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(store.Persist(evs, opts).Log), got.String()); diff != "" {
					t.Fatalf("seed %d: log (-Persist +Stream):\n%s", seed, diff)
				}
			}
		})
	}
	bad := errors.New("line 3: bad event")
	evs := sim.Generate(1, sim.Options{}).Events
	var got bytes.Buffer
	if err := store.Stream(&got, next(evs[:2], bad), store.Options{}); !errors.Is(err, bad) {
		t.Fatalf("Stream = %v, want the read error", err)
	}
}
