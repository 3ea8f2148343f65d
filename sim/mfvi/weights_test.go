package mfvi

import (
	"math"
	"testing"
)

// Marginal reads q's mean and std; names follow the flat layout.
func TestWeightMarginalAndName(t *testing.T) {
	m := newMethod(t, loadData(t, "gap"), "", nil, 3)
	for range 20 {
		m.Step()
	}
	if n := m.NumWeights(); n != 2701 {
		t.Fatalf("NumWeights %d, want 2701", n)
	}
	for _, i := range []int{0, 1234, 2700} {
		q, ok := m.Marginal(i, 0)
		if !ok || q.Mean != m.mu[i] || q.Std != math.Exp(m.ls[i]) || q.Draws != nil {
			t.Fatalf("weight %d: %g, %g, %v", i, q.Mean, q.Std, ok)
		}
	}
	for _, i := range []int{-1, 2701} {
		if _, ok := m.Marginal(i, 0); ok {
			t.Fatalf("weight %d accepted", i)
		}
	}
	for i, want := range map[int]string{0: "layer 1, input 1 → unit 1", 50: "layer 1, bias of unit 1", 100: "layer 2, input 1 → unit 1", 2650: "layer 3, input 1 → unit 1", 2700: "layer 3, bias of unit 1", 2701: ""} {
		if got := m.WeightName(i); got != want {
			t.Errorf("WeightName(%d) = %q, want %q", i, got, want)
		}
	}
}
