package adapter_test

import "testing"

// BenchmarkCampaign measures the campaign's rate in process: eino's
// runner, its goroutines and every oracle, 200 seeds per iteration,
// findings left unshrunk, on one worker and on one per CPU
// (go test -run '^$' -bench Campaign ./adapter): executor.Suite.Bench.
func BenchmarkCampaign(b *testing.B) { suite.Bench(b) }
