// Package tracemeta is the header of the traces toolsim writes (toolsim
// sim, saved campaign failures, shrunk regressions, campaign.Fuzz): their
// source, the generator options that make them again, and the log faults
// and reconnect point their reconstruction oracles ran with. Read turns a
// header back into those settings, for toolsim check and
// harnesstest.ReplayDir.
package tracemeta
