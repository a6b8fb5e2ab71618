package tracemeta

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// Header sources of traces toolsim writes.
const (
	SourceSim        = "sim"            // generated from a seed: toolsim sim, campaigns
	SourceExhaustive = "sim-exhaustive" // one ordering of an exhaustive enumeration
	SourceShrink     = "shrink"         // shrunk from a trace of another source
)

// Meta is the header meta of a trace toolsim wrote: how to generate it
// again, and how its reconstruction oracles ran.
type Meta struct {
	Faults      string `json:"faults,omitempty"`
	Swarm       bool   `json:"swarm,omitempty"`
	Tools       int    `json:"tools,omitempty"`
	Turns       int    `json:"turns,omitempty"`
	On          string `json:"on,omitempty"`
	LogFaults   string `json:"log_faults,omitempty"`
	FaultSeed   uint64 `json:"fault_seed"`
	ReconnectAt int    `json:"reconnect_at,omitempty"`
	CrashAt     int    `json:"crash_at,omitempty"`
	BatchIDs    bool   `json:"batch_ids,omitempty"`
	Oracle      string `json:"oracle,omitempty"` // saved failures: the oracle that failed
	Ordering    int64  `json:"ordering,omitempty"`
}

// Replay is what a header says about checking its trace again: the
// fields of harness.Case beyond its events.
type Replay struct {
	// Generated is set for a trace toolsim wrote (a seed, an exhaustive
	// ordering, a shrink).
	Generated   bool
	LogFaults   fault.List
	FaultSeed   uint64
	ReconnectAt int
	CrashAt     int
	BatchIDs    bool
}

// Scenario is the meta of a generated scenario.
func Scenario(sc *sim.Scenario) Meta {
	m := Meta{
		Faults: sc.Options.Faults.String(), Swarm: sc.Options.Swarm, Tools: sc.Options.Tools,
		Turns: sc.Options.Turns, On: sc.On.String(), FaultSeed: sc.Seed,
		ReconnectAt: sc.ReconnectAt, CrashAt: sc.CrashAt, BatchIDs: sc.BatchIDs,
	}
	if len(sc.LogFaults) > 0 {
		m.LogFaults = sc.LogFaults.String()
	}
	return m
}

// With fills a case's reconstruction settings into m.
func (m Meta) With(r Replay) Meta {
	m.LogFaults, m.FaultSeed, m.ReconnectAt, m.BatchIDs = r.LogFaults.Join(","), r.FaultSeed, r.ReconnectAt, r.BatchIDs
	m.CrashAt = r.CrashAt
	return m
}

// Header returns a trace header with the meta; seed is recorded for
// SourceSim traces.
func Header(source string, seed uint64, m Meta) *event.Header {
	meta, _ := json.Marshal(m)
	h := &event.Header{Trace: event.Version, Source: source, Meta: meta}
	if source == SourceSim && seed <= math.MaxInt64 {
		s := int64(seed)
		h.Seed = &s
	}
	return h
}

// Faults returns the trace faults a trace toolsim generated was made
// under: its header's meta "faults" (a seed from toolsim sim, a failure a
// campaign saved: the campaign's fault list). It reports false when the
// header records none: a trace from elsewhere or without a header, an
// exhaustive ordering, a shrunk trace.
func Faults(h *event.Header) (fault.List, bool, error) {
	if h == nil || len(h.Meta) == 0 || !generated(h.Source) {
		return nil, false, nil
	}
	var m Meta
	if err := json.Unmarshal(h.Meta, &m); err != nil {
		return nil, false, fmt.Errorf("header meta: %w", err)
	}
	if m.Faults == "" {
		return nil, false, nil
	}
	faults, err := fault.Parse(m.Faults)
	if err != nil {
		return nil, false, fmt.Errorf("header meta faults: %w", err)
	}
	return faults, true, nil
}

// generated reports whether a header source is one of toolsim's own.
func generated(source string) bool {
	return source == SourceSim || source == SourceExhaustive || source == SourceShrink
}

// Read returns what a header says about checking its trace again: for a
// trace toolsim wrote, the log faults, reconnect and crash points it
// records.
// Traces from elsewhere (or without a header) get the zero Replay.
func Read(h *event.Header) (Replay, error) {
	if h == nil || len(h.Meta) == 0 || !generated(h.Source) {
		return Replay{}, nil
	}
	var m Meta
	if err := json.Unmarshal(h.Meta, &m); err != nil {
		return Replay{}, fmt.Errorf("header meta: %w", err)
	}
	faults, err := fault.Parse(m.LogFaults)
	if err != nil {
		return Replay{}, fmt.Errorf("header meta log_faults: %w", err)
	}
	if m.CrashAt < 0 {
		return Replay{}, fmt.Errorf("header meta crash_at: %d is negative (a number of events)", m.CrashAt)
	}
	return Replay{Generated: true, LogFaults: faults, FaultSeed: m.FaultSeed, ReconnectAt: m.ReconnectAt,
		CrashAt: m.CrashAt, BatchIDs: m.BatchIDs}, nil
}
