package stan

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// TestGridTypedFunnel: the funnel typed as sampling statements, whose
// normalising constants are kept, has log Z = 0, sd v = 3 and sd x =
// e^{9/4}. The box the parser finds, about v ∈ [−18, 9], x ∈ [±16], holds
// neither x's tails nor v's upper end, where E x² = E eᵛ takes its mass,
// and a uniform grid over it cannot resolve the neck: the grid's
// sinh-mapped axes reach past both (see target.NewGrid). Its quadrature
// error is estimated by LogZErr (~10⁻⁹); 10⁻⁶ is a thousandfold margin.
func TestGridTypedFunnel(t *testing.T) {
	const tol = 1e-6
	d, err := Parse("v ~ normal(0, 3); x ~ normal(0, exp(v / 2));")
	if err != nil {
		t.Fatal(err)
	}
	g, err := target.NewGrid(d, target.MinGridSize)
	if err != nil {
		t.Fatal(err)
	}
	sd := [2]float64{3, math.Exp(9.0 / 4)}
	for a, got := range [2]float64{math.Sqrt(g.Cov[0][0]), math.Sqrt(g.Cov[1][1])} {
		if math.Abs(got-sd[a]) > tol*sd[a] || math.Abs(g.Mean[a]) > tol*sd[a] {
			t.Errorf("%s: mean %g, sd %g; want 0, %g", g.Params[a], g.Mean[a], got, sd[a])
		}
	}
	if math.Abs(g.LogZ) > tol || g.LogZErr > tol {
		t.Errorf("log Z = %g (error estimate %g), want 0", g.LogZ, g.LogZErr)
	}
}
