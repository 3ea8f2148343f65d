package experiment

import "testing"

// BenchmarkRunNUTSLinearText is BenchmarkRunNUTSLinear as the text report
// runs it (NoDiagnostics): the sampling and the summary's bands.
func BenchmarkRunNUTSLinearText(b *testing.B) {
	cfg := DefaultConfig()
	cfg.NoDiagnostics = true
	benchRunNUTSLinear(b, cfg)
}
