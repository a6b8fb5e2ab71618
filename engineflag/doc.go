// Package engineflag holds the command-line flags that choose the engine
// under test and shape what is checked, shared by toolsim's replay,
// check, fuzz and shrink: --engine, --timeout, --diff, --features,
// --meta-tools, --no-grouping, --self-check, --contract, --documented and
// --robustness. [Flags.Register] adds them to a flag set;
// [Flags.Start] turns them into the engines and options a check runs
// with, starting an external engine and narrowing the options to what it
// declared; [Engine.Args] repeats them for the reproduce commands a
// failure prints.
package engineflag
