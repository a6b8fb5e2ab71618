// Package fault is toolsim's one fault vocabulary (SPEC §4 and §6): the
// [Fault] type, every trace fault the simulator injects and every log
// (persistence) fault the store's writer applies, the [List] type that
// flags, sim.Options, store.Options, trace headers and the harness share,
// and the one parser, [Parse], that reads "all", "none" and comma lists.
//
// The package has no dependencies beyond the standard library, so every
// other package may import it.
package fault
