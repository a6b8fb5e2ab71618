// Package planted holds the engines with planted bugs that the tests of
// harness and harness/campaign share: the reference engine bent in the
// ways real agents were wrong (SPEC §6). Only tests import it.
package planted
