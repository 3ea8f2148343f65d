package livi

import (
	"math"
	"testing"
)

// WeightSamples draws g(z)_i + σε: with a generator whose W₂ row for the
// weight is zero the draws are N(b₂[i], σ²) exactly, so their mean and std
// are checked against that (n = 4000: mean s.e. σ/63, std s.e. ≈ σ/89; 5
// s.e. bounds). Names follow the flat layout.
func TestWeightSamplesAndName(t *testing.T) {
	m := newLIVI(t, loadData(t, "gap"), "", nil, 5)
	const i, n = 2699, 4000
	for k := range m.gen.h {
		m.gen.w2t[k*m.gen.out+i] = 0
	}
	v := m.WeightSamples(i, n)
	var s, s2 float64
	for _, x := range v {
		s += x
		s2 += x * x
	}
	mean := s / n
	std := math.Sqrt(s2/n - mean*mean)
	if math.Abs(mean-m.gen.b2[i]) > 5*m.sigma/63 || math.Abs(std-m.sigma) > 5*m.sigma/89 {
		t.Fatalf("mean %g (want %g), std %g (want %g)", mean, m.gen.b2[i], std, m.sigma)
	}
	if m.WeightSamples(2701, 5) != nil || m.WeightSamples(-1, 5) != nil {
		t.Fatal("out-of-range index accepted")
	}
	for i, want := range map[int]string{0: "layer 1, input 1 → unit 1", 99: "layer 1, bias of unit 50", 2699: "layer 3, input 50 → unit 1", 2700: "layer 3, bias of unit 1"} {
		if got := m.WeightName(i); got != want {
			t.Errorf("WeightName(%d) = %q, want %q", i, got, want)
		}
	}
}
