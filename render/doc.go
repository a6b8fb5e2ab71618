// Package render draws a [timeline.Timeline] as plain text at a given width,
// exactly as SPEC §3 describes (glyphs, column rules, durations, summaries,
// output snippets, delegation rows), measuring text by display width so that
// wide and combining characters are never split.
//
// Invariants:
//   - Render is a pure function of the timeline and the options: the same
//     input gives the same bytes.
//   - No line is wider than Options.Width (for widths of at least 8), and no
//     line ends in a space.
//   - [Incremental] output always equals [Render] of the same timeline; it only
//     re-renders items whose version changed (or that hold a live tool, whose
//     elapsed time moves with the clock).
//
// Styled (coloured) output is a layer on top of this package, never a fork.
//
// Runnable examples: Render and Incremental.
package render
