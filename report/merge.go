package report

import (
	"fmt"
	"os"
	"sort"
)

// Merged is the --json reports of several `toolsim fuzz --shard K/N`
// jobs combined into one.
type Merged struct {
	// Results has one result per signature, deduplicated (seed counts
	// summed, the repro of the lowest first seed kept), by first seed;
	// then the coverage failures and the fixed baseline entries no shard
	// found; or, with neither, one passing summary of all the scenarios.
	Results []Result
	// Found reports whether a result is one of the merged findings.
	Found  map[string]bool
	Shards int      // reports read
	NotRun []string // the oracles the shards did not run
}

// Merge reads the --json reports of fuzz shards, in order, and combines
// them. An error names the file and line at fault.
func Merge(paths []string) (*Merged, error) {
	m := merger{bySig: map[string]*Result{}}
	for _, path := range paths {
		if err := m.read(path); err != nil {
			return nil, err
		}
	}
	out := &Merged{Results: m.results(), Found: map[string]bool{}, Shards: m.shards, NotRun: m.notRun}
	for sig := range m.bySig {
		out.Found[sig] = true
	}
	return out, nil
}

// merger accumulates shard reports.
type merger struct {
	bySig     map[string]*Result
	other     []Result // coverage failures, fixed notes
	scenarios int
	events    int
	shards    int
	notRun    []string
}

// read adds one report file, naming file and line in errors.
func (m *merger) read(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lines, err := ReadJSON(f, path)
	if err != nil {
		return err
	}
	for n, l := range lines {
		if l.Suite != "toolsim fuzz" {
			return fmt.Errorf("%s:%d: suite %q: want the --json report of toolsim fuzz", path, n+1, l.Suite)
		}
		m.notRun = l.NotRun
		m.add(l.Result)
	}
	m.shards++
	return nil
}

// add merges one result.
func (m *merger) add(r Result) {
	switch {
	case r.Signature == "" && r.Scenarios > 0 && r.Status == Pass:
		m.scenarios += r.Scenarios
		m.events += r.Events
		return
	case r.Signature == "" || r.Count == 0 && r.Status == Pass && !r.Known:
		m.other = append(m.other, r) // coverage failures, fixed baseline entries
		return
	}
	old := m.bySig[r.Signature]
	if old == nil {
		m.bySig[r.Signature] = &r
		return
	}
	count := old.Count + r.Count
	if r.Seed != nil && (old.Seed == nil || *r.Seed < *old.Seed) {
		*old = r
	}
	old.Count = count
}

// results lists the merged findings by first seed, then the rest.
func (m *merger) results() []Result {
	var out []Result
	for _, r := range m.bySig {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return firstSeedOrder(out[i], out[j]) })
	seen := map[string]bool{}
	for _, r := range m.other {
		// A baseline entry is fixed only if no shard found it.
		if r.Signature != "" && (m.bySig[r.Signature] != nil || seen[r.Signature]) {
			continue
		}
		seen[r.Signature] = true
		out = append(out, r)
	}
	if len(m.bySig) == 0 && len(m.other) == 0 {
		out = append(out, Result{Name: fmt.Sprintf("campaign (%d scenarios in %d shards)", m.scenarios, m.shards),
			Status: Pass, Scenarios: m.scenarios, Events: m.events})
	}
	return out
}

// firstSeedOrder orders findings by first seed (a baseline's repro, with
// none, last), then signature.
func firstSeedOrder(a, b Result) bool {
	if (a.Seed == nil) != (b.Seed == nil) {
		return a.Seed != nil
	}
	if a.Seed != nil && *a.Seed != *b.Seed {
		return *a.Seed < *b.Seed
	}
	return a.Signature < b.Signature
}
