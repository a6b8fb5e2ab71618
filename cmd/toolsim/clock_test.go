package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testClock is the wall clock of the toolsim a script runs when it sets
// TOOLSIM_TEST_CLOCK: a comma list of milliseconds after a fixed instant,
// one per reading (the last repeats). Empty: the real clock (nil). A bad
// list ends the process with status 2 and says why.
func testClock(spec string) func() time.Time {
	if spec == "" {
		return nil
	}
	ms, err := parseClock(spec)
	if err != nil {
		fmt.Fprintf(os.Stderr, "TOOLSIM_TEST_CLOCK: %v\n", err)
		os.Exit(2)
	}
	base := time.Date(2026, 1, 20, 10, 0, 0, 0, time.UTC)
	i := 0
	return func() time.Time {
		t := base.Add(time.Duration(ms[min(i, len(ms)-1)]) * time.Millisecond)
		i++
		return t
	}
}

// parseClock reads TOOLSIM_TEST_CLOCK's list.
func parseClock(spec string) ([]int64, error) {
	var ms []int64
	for i, f := range strings.Split(spec, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("reading %d: %w", i+1, err)
		}
		ms = append(ms, v)
	}
	return ms, nil
}

func TestTestClock(t *testing.T) {
	now := testClock("0,2,504")
	start := now()
	var got []int64
	for range 4 {
		got = append(got, now().Sub(start).Milliseconds())
	}
	if diff := cmp.Diff([]int64{2, 504, 504, 504}, got); diff != "" {
		t.Errorf("readings after the start (-want +got):\n%s", diff)
	}
	if testClock("") != nil {
		t.Error("an empty TOOLSIM_TEST_CLOCK should leave the real clock")
	}
	if _, err := parseClock("0,x"); err == nil || !strings.Contains(err.Error(), "reading 2") {
		t.Errorf("parseClock(0,x) = %v, want an error naming reading 2", err)
	}
}
