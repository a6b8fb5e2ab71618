// Package race says whether the race detector is compiled in, so that a
// heavy test whose concurrency other tests already cover under the
// detector (an endless input read to its limit, every ordering of a batch
// enumerated, the scenario scripts run as processes, a 100,000-event page
// built) can leave the -race run of make test to run once more without
// the detector, where it costs a tenth. Such a test still runs in make
// test: the Makefile's second step names it.
package race
