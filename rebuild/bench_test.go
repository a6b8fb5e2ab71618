package rebuild_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
)

// logOf persists a synthetic trace of about n events.
func logOf(n int, faults ...fault.Fault) []byte {
	evs := sim.Synthetic(11, sim.SyntheticOptions{Events: n, CancelEvery: 5, BatchIDs: true})
	return store.Persist(evs, store.Options{Faults: faults, Seed: 1}).Log
}

// progressLog is a log of n records that are almost all progress updates
// for a handful of tools: a big file whose timeline stays small.
func progressLog(n int) []byte {
	evs := []event.Event{{Kind: event.KindTurnStart, Role: event.RoleAssistant}}
	for i := range 8 {
		evs = append(evs, event.Event{Kind: event.KindToolStart, ID: fmt.Sprint("t", i), Name: "bash"})
	}
	for len(evs) < n {
		evs = append(evs, event.Event{Kind: event.KindToolProgress, ID: fmt.Sprint("t", len(evs)%8),
			Details: []byte(`{"ui":{"kind":"agent_delegation","mode":"single","items":[{"id":"1","agent":"a","task":"t","status":"running"}]}}`)})
	}
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(i)
	}
	return store.Persist(evs, store.Options{}).Log
}

func benchRebuild(b *testing.B, log []byte) {
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	records := 0
	for b.Loop() {
		res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{})
		if err != nil {
			b.Fatal(err)
		}
		records = res.Records
	}
	b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkRebuild1M rebuilds a log of about 1,000,000 records from a
// realistic synthetic trace.
func BenchmarkRebuild1M(b *testing.B) { benchRebuild(b, logOf(1_000_000)) }

// BenchmarkRebuildTorn100MB rebuilds a torn log of about 100 MB.
func BenchmarkRebuildTorn100MB(b *testing.B) {
	log := logOf(700_000, fault.Torn)
	b.Logf("log size %d MB", len(log)>>20)
	benchRebuild(b, log)
}

// BenchmarkRebuildMemory rebuilds a 1,000,000-record log whose timeline is
// tiny and reports the heap the rebuild keeps: it follows the timeline, not
// the file.
func BenchmarkRebuildMemory(b *testing.B) {
	log := progressLog(1_000_000)
	var before, after runtime.MemStats
	benchRebuild(b, log)
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, _ := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(res)
	b.ReportMetric(float64(len(log))/(1<<20), "file-MB")
	b.ReportMetric(float64(after.HeapAlloc-min(before.HeapAlloc, after.HeapAlloc))/(1<<20), "kept-heap-MB")
}
