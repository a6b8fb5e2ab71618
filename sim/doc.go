// Package sim generates canonical traces from a seed. Today it holds
// [Synthetic], a generator of realistic multi-turn traces used by benchmarks
// and property tests; the scenario planner, fault injection and scheduler of
// the simulator build on it.
//
// Determinism: one seeded math/rand/v2 source drives every choice, so the
// same seed and options give the same events on any machine. There is no
// wall clock: time is a virtual millisecond counter.
package sim
