package event_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sim"
)

func encodedTrace(b *testing.B, n int) []byte {
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, nil, sim.Synthetic(1, sim.SyntheticOptions{Events: n, CancelEvery: 5})); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkDecode reads a 10,000-event trace; the MB/s column is the decode
// throughput.
func BenchmarkDecode(b *testing.B) {
	data := encodedTrace(b, 10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var ev event.Event
	for b.Loop() {
		r := event.NewReader(bytes.NewReader(data), event.ReaderOptions{})
		for {
			err := r.Next(&ev)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEncode writes the same trace.
func BenchmarkEncode(b *testing.B) {
	data := encodedTrace(b, 10_000)
	_, evs, _ := event.ReadAll(bytes.NewReader(data), event.ReaderOptions{})
	b.SetBytes(int64(len(data)))
	var buf []byte
	for b.Loop() {
		for i := range evs {
			buf = event.AppendEvent(buf[:0], &evs[i])
		}
	}
}
