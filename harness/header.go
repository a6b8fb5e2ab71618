package harness

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// Header sources of traces the harness writes.
const (
	SourceSim        = "sim"            // generated from a seed: toolsim sim, campaigns
	SourceExhaustive = "sim-exhaustive" // one ordering of an exhaustive enumeration
	SourceShrink     = "shrink"         // shrunk from a trace of another source
)

// TraceMeta is the header meta of a trace the harness wrote: how to
// generate it again, and how its reconstruction oracles ran.
type TraceMeta struct {
	Faults      string `json:"faults,omitempty"`
	Swarm       bool   `json:"swarm,omitempty"`
	Tools       int    `json:"tools,omitempty"`
	Turns       int    `json:"turns,omitempty"`
	On          string `json:"on,omitempty"`
	LogFaults   string `json:"log_faults,omitempty"`
	FaultSeed   uint64 `json:"fault_seed"`
	ReconnectAt int    `json:"reconnect_at,omitempty"`
	BatchIDs    bool   `json:"batch_ids,omitempty"`
	Oracle      string `json:"oracle,omitempty"` // saved failures: the oracle that failed
	Ordering    int64  `json:"ordering,omitempty"`
}

// ScenarioMeta is the meta of a generated scenario.
func ScenarioMeta(sc *sim.Scenario) TraceMeta {
	m := TraceMeta{
		Faults: sc.Options.Faults.String(), Swarm: sc.Options.Swarm, Tools: sc.Options.Tools,
		Turns: sc.Options.Turns, On: sc.On.String(), FaultSeed: sc.Seed,
		ReconnectAt: sc.ReconnectAt, BatchIDs: sc.BatchIDs,
	}
	if len(sc.LogFaults) > 0 {
		m.LogFaults = sc.LogFaults.String()
	}
	return m
}

// CaseMeta fills the reconstruction settings of a case into m.
func CaseMeta(m TraceMeta, c *Case) TraceMeta {
	m.LogFaults, m.FaultSeed, m.ReconnectAt, m.BatchIDs = c.LogFaults.Join(","), c.FaultSeed, c.ReconnectAt, c.BatchIDs
	return m
}

// Header returns a trace header with the meta; seed is recorded for
// SourceSim traces.
func Header(source string, seed uint64, m TraceMeta) *event.Header {
	meta, _ := json.Marshal(m)
	h := &event.Header{Trace: event.Version, Source: source, Meta: meta}
	if source == SourceSim && seed <= math.MaxInt64 {
		s := int64(seed)
		h.Seed = &s
	}
	return h
}

// CaseFromHeader builds the case a trace describes: its events, and for a
// trace the harness wrote, the log faults and reconnect point its header
// records. Traces from elsewhere get no log faults and no reconnect.
func CaseFromHeader(h *event.Header, evs []event.Event) (*Case, error) {
	c := &Case{Events: evs}
	if h == nil || len(h.Meta) == 0 || (h.Source != SourceSim && h.Source != SourceExhaustive && h.Source != SourceShrink) {
		return c, nil
	}
	c.Generated = true
	var m TraceMeta
	if err := json.Unmarshal(h.Meta, &m); err != nil {
		return nil, fmt.Errorf("header meta: %w", err)
	}
	faults, err := fault.Parse(m.LogFaults)
	if err != nil {
		return nil, fmt.Errorf("header meta log_faults: %w", err)
	}
	c.LogFaults, c.FaultSeed, c.ReconnectAt, c.BatchIDs = faults, m.FaultSeed, m.ReconnectAt, m.BatchIDs
	return c, nil
}
