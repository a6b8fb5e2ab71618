// Package timeline is the view model that engines build and the renderer
// draws: an ordered list of items (user text, assistant text, thinking,
// tools, tool groups, meta tools, notices, separators) plus the diagnostics
// an engine raised on the way.
//
// Its JSON encoding (see [Timeline.MarshalJSON] and docs/timeline.md) is the
// contract other engines are compared against: keys are sorted, there are no
// maps, statuses are explicit strings, and a field that is absent means its
// zero value.
//
// Invariants an engine keeps:
//   - Every started tool appears exactly once, either as a top-level item,
//     inside a group, or among its parent's children.
//   - A tool in a terminal [Status] never changes status again.
//   - Item.Version increases whenever anything inside the item changes, so a
//     renderer may cache an item's lines by version. Versions are not part of
//     the JSON contract.
//
// The Timeline.MarshalJSON example shows the JSON contract.
package timeline
