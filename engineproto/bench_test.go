package engineproto_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// scenarios are campaign-sized traces (every fault, swarm), about 55
// events each: a timeline is sent back after every event, so its size
// follows the scenario's.
func scenarios(n int) [][]event.Event {
	out := make([][]event.Event, n)
	for i := range out {
		out[i] = sim.Generate(uint64(i), sim.Options{Faults: fault.All(), Swarm: true}).Events
	}
	return out
}

func benchPipe(b *testing.B, batch bool, mode string) { benchPipeFinal(b, batch, false, mode) }

// benchPipeFinal is benchPipe; with final, each trace goes through
// BatchFinal (only the last timeline decoded).
func benchPipeFinal(b *testing.B, batch, final bool, mode string) {
	b.Setenv(fakeEnv, mode)
	c, err := engineproto.Start([]string{os.Args[0]}, engineproto.Options{Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	benchTraces(b, c, batch, final)
}

// benchTraces sends 100 campaign-sized traces through a client, one event
// per message, in batches, or in batches of which only the last timeline
// is decoded (final), and reports events/s.
func benchTraces(b *testing.B, c *engineproto.Client, batch, final bool) {
	traces := scenarios(100)
	events := 0
	for b.Loop() {
		for _, evs := range traces {
			if err := c.Reset(); err != nil {
				b.Fatal(err)
			}
			if final {
				if _, err := c.BatchFinal(evs); err != nil {
					b.Fatal(err)
				}
			} else if batch {
				if _, err := c.Batch(evs, true); err != nil {
					b.Fatal(err)
				}
			} else {
				for i := range evs {
					if _, err := c.Event(&evs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			events += len(evs)
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkPipeLockstep: one event per round trip through `toolsim
// engine`'s server (the reference engine in another process).
func BenchmarkPipeLockstep(b *testing.B) { benchPipe(b, false, "reference") }

// BenchmarkPipeBatch: whole traces per message, a timeline back per event
// (a delta: the items that changed).
func BenchmarkPipeBatch(b *testing.B) { benchPipe(b, true, "reference") }

// BenchmarkPipeBatchFinal: whole traces per message, only the last
// timeline decoded (the harness's second replay and its replay with
// results reordered).
func BenchmarkPipeBatchFinal(b *testing.B) { benchPipeFinal(b, true, true, "reference") }

// BenchmarkPipeBatchFull: the same with whole timelines in every reply
// (an engine without the delta capability).
func BenchmarkPipeBatchFull(b *testing.B) { benchPipe(b, true, "reference-full") }

// BenchmarkPipeInProcess: the protocol path with the reference engine
// served on a goroutine of the same process over a pipe pair, no process
// in between: batches, every timeline decoded, as BenchmarkPipeBatch.
func BenchmarkPipeInProcess(b *testing.B) {
	for _, tt := range []struct {
		name  string
		final bool
	}{{"batch", false}, {"batch-final", true}} {
		b.Run(tt.name, func(b *testing.B) {
			serve := func(r io.Reader, w io.Writer) error { return engineproto.Serve(r, w, serveOpts) }
			c, err := engineproto.StartServed(serve, engineproto.Options{Timeout: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			benchTraces(b, c, true, tt.final)
		})
	}
}

// BenchmarkServeBatch: the server alone (no pipe, no client), answering
// whole traces in batch messages with deltas.
func BenchmarkServeBatch(b *testing.B) {
	var in bytes.Buffer
	in.WriteString(`{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80}}` + "\n")
	events := 0
	for i, evs := range scenarios(100) {
		fmt.Fprintf(&in, `{"type":"reset","id":%d}`+"\n", 2*i+2)
		fmt.Fprintf(&in, `{"type":"batch","id":%d,"finish":true,"events":[`, 2*i+3)
		for k := range evs {
			if k > 0 {
				in.WriteByte(',')
			}
			in.Write(event.AppendEvent(nil, &evs[k]))
		}
		in.WriteString("]}\n")
		events += len(evs)
	}
	for b.Loop() {
		if err := engineproto.Serve(bytes.NewReader(in.Bytes()), io.Discard, serveOpts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events*b.N)/b.Elapsed().Seconds(), "events/s")
}
