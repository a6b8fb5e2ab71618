package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Add appends r, its Time the time since the previous result was added
// (or since the suite's Timestamp), now being the time it ended.
func (s *Suite) Add(r Result, now time.Time) {
	if s.last.IsZero() {
		s.last = s.Timestamp
	}
	r.Time, s.last = now.Sub(s.last), now
	s.Results = append(s.Results, r)
}

// WriteFiles writes the suite as JSON Lines to jsonPath and as JUnit XML
// to junitPath, creating their directories; an empty path is skipped.
// Both are attempted; the errors are joined, each naming its path.
func (s *Suite) WriteFiles(jsonPath, junitPath string) error {
	var errs []error
	if jsonPath != "" {
		errs = append(errs, WriteFile(jsonPath, func(w io.Writer) error { return WriteJSON(w, s) }))
	}
	if junitPath != "" {
		errs = append(errs, WriteFile(junitPath, func(w io.Writer) error { return WriteJUnit(w, s) }))
	}
	return errors.Join(errs...)
}

// WriteFile creates the file path (and its directory) and writes it with
// write; an error of write names the path.
func WriteFile(path string, write func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// WriteSignatures writes the signatures the failing results showed, each
// with the results (traces) that showed it, most first: toolsim check's
// summary of several traces. Nothing is written when none failed.
func (s *Suite) WriteSignatures(w io.Writer) {
	groups := map[string][]string{}
	var sigs []string
	n := 0
	for _, r := range s.Results {
		if r.Status != Fail || r.Signature == "" {
			continue
		}
		if groups[r.Signature] == nil {
			sigs = append(sigs, r.Signature)
		}
		name := r.Name
		if r.Trace != "" {
			name = r.Trace
		}
		groups[r.Signature] = append(groups[r.Signature], name)
		n++
	}
	if n == 0 {
		return
	}
	sort.SliceStable(sigs, func(i, j int) bool {
		a, b := groups[sigs[i]], groups[sigs[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return sigs[i] < sigs[j]
	})
	fmt.Fprintf(w, "signatures: %d in %d failing traces\n", len(sigs), n)
	for _, sig := range sigs {
		fmt.Fprintf(w, "  %3d  %s\n", len(groups[sig]), sig)
		for _, name := range groups[sig] {
			fmt.Fprintf(w, "         %s\n", name)
		}
	}
}
