// Package sim generates canonical traces from a seed: [Generate] plans a
// scenario (turns, batches of tools, their outcomes, the faults switched
// on) and schedules it to events; [Exhaustive] enumerates every causal
// ordering of one batch and every cancel point; [Synthetic] makes long
// realistic traces for benchmarks.
//
// Determinism: one seeded math/rand/v2 source drives every choice, so the
// same seed and options give the same events on any machine. There is no
// wall clock: time is a virtual millisecond counter.
//
// The Generate example prints the tool events of one seed.
package sim
