// Package contract is toolsim's vocabulary for what an engine's real
// upstream can and cannot send: the model stream, tool runtime or server
// that feeds the library under test in a real app.
//
// A [Guarantee] is a constraint a library author recognises, such as "an
// executor that runs its own tools never sees a result before its call"
// ([CallsFirst]) or "a denial only answers a request" ([AnswersAsked]). An
// engine declares the guarantees of its upstream (harness.Options, or the
// protocol's init_ok "contract"), and toolsim then generates, shrinks and
// reports only inside them: a finding whose repro breaks a guarantee is an
// input the real upstream never sends, which a maintainer would close.
// Robustness mode explores outside the contract and labels such findings.
//
// A [Behaviour] is a library's documented behaviour that SPEC §2 is stricter
// than (for example the AI SDK keeps approval requests open when a
// response ends): declared, it leaves the default report.
//
// [List.Check] judges a trace against a contract: the first event that
// breaks a guarantee, and which. [Guarantee.Faults] names the trace faults
// a guarantee rules out, so the simulator never switches them on.
//
// The package depends only on event and fault, so the simulator, the
// harness and the protocol may all import it.
package contract
