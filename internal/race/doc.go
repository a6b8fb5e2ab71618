// Package race says whether the race detector is compiled in, so that a
// test whose work is single-goroutine and heavy (an endless input read to
// its limit, every ordering of a batch enumerated) can leave the -race run
// of make test to run once more without the detector, where it costs a
// tenth. Such a test still runs in make test: the Makefile's second step
// names it.
package race
