package store

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestDayStamp checks the cached stamps against FormatTime across day
// boundaries, before the epoch, and in years of more than four digits.
func TestDayStamp(t *testing.T) {
	var d dayStamp
	check := func(ms int64) {
		t.Helper()
		if got, want := d.stamp(ms), FormatTime(time.UnixMilli(ms)); got != want {
			t.Fatalf("stamp(%d) = %q, want %q", ms, got, want)
		}
	}
	t0 := DefaultT0.UnixMilli()
	for _, ms := range []int64{t0, t0 + 1, t0 + msPerDay - 1, t0 + msPerDay, 0, -1, -msPerDay, -msPerDay - 1, 1e15, 1e18, math.MaxInt64 / 1000, t0} {
		check(ms)
		check(ms - ms%msPerDay)
		check(ms - ms%msPerDay + msPerDay - 1)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		check(t0 + rng.Int64N(10*msPerDay) - 5*msPerDay)
	}
}
