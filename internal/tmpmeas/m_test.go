package tmpmeas

import (
	"runtime"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/sim"
)

var evs = sim.Synthetic(1, sim.Options{Events: 1_000_000, CancelEvery: 5})

func half() *engine.Engine {
	e := engine.New(engine.Options{})
	for i := range evs[:len(evs)/2] {
		e.Apply(&evs[i])
	}
	return e
}

func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func TestMem(t *testing.T) {
	h0 := heap()
	e := half()
	h1 := heap()
	c := e.Clone()
	h2 := heap()
	t.Logf("events %d; engine at half %d MB; clone %d MB", len(evs), (h1-h0)>>20, (h2-h1)>>20)
	runtime.KeepAlive(e)
	runtime.KeepAlive(c)
}

func BenchmarkApplyHalf(b *testing.B) {
	for b.Loop() {
		half()
	}
}

func BenchmarkCloneHalf(b *testing.B) {
	e := half()
	for b.Loop() {
		e.Clone()
	}
}
