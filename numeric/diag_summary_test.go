package numeric_test

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// 4 chains × 10000 draws, the dashboard's typical load.
func benchChains() [][]float64 {
	return ar1Chains(numeric.NewRand(1), 4, 10000, 0.5)
}

func BenchmarkRHatESSBulkESSTail(b *testing.B) {
	ch := benchChains()
	b.ReportAllocs()
	for b.Loop() {
		numeric.RHat(ch)
		numeric.ESSBulk(ch)
		numeric.ESSTail(ch)
	}
}

func BenchmarkSummarize(b *testing.B) {
	ch := benchChains()
	b.ReportAllocs()
	for b.Loop() {
		numeric.Summarize(ch)
	}
}

func BenchmarkAutocorrelation(b *testing.B) {
	x := benchChains()[0]
	b.ReportAllocs()
	for b.Loop() {
		numeric.Autocorrelation(x, 100)
	}
}
