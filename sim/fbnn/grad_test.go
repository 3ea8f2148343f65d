package fbnn

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// The analytic gradient of a step (likelihood, entropy surrogate with the
// SSGE score held fixed, cross-entropy, through the network and the
// reparameterisation) against central differences of surrogateLoss, at 40
// random means, 40 random log stds and 40 random entries of the output
// layer's Cholesky factor (nonzero after 50 steps). h = 1e-6: rounding
// error ≈ 1e-16·|loss|/h ≈ 1e-9 for |loss| ≲ 10; truncation O(h²). A ReLU
// kink inside ±h would break one comparison; with 30 particles × 60 inputs
// that has probability of order h/(spread of pre-activations) per unit,
// negligible.
func TestGradientFiniteDifferences(t *testing.T) {
	for _, c := range []struct {
		data   string
		kernel string
	}{{"periodic", KernelPeriodic}, {"gap", KernelRBF}} {
		t.Run(c.data, func(t *testing.T) {
			m := newMethod(t, loadData(t, c.data, 1), sim.Controls{"kernel": sim.Choice(c.kernel), "particles": sim.Num(12), "measurement_points": sim.Num(15)}, 3)
			for range 50 {
				m.Step()
			}
			m.draw(m.st)
			if obj := m.gradient(m.st); !finite(obj) {
				t.Fatalf("objective %v", obj)
			}
			gmu := append([]float64(nil), m.gmu...)
			gls := append([]float64(nil), m.gls...)
			glo := append([]float64(nil), m.glo...)
			r := numeric.NewRand(99)
			check := func(name string, p []float64, i int, analytic float64) {
				const h = 1e-6
				old := p[i]
				p[i] = old + h
				up := surrogateLoss(m)
				p[i] = old - h
				down := surrogateLoss(m)
				p[i] = old
				fd := (up - down) / (2 * h)
				if math.Abs(fd-analytic) > 1e-6+1e-4*math.Abs(fd) {
					t.Errorf("%s[%d]: analytic %.10g, finite difference %.10g", name, i, analytic, fd)
				}
			}
			for range 40 {
				i := r.IntN(len(m.mu))
				check("μ", m.mu, i, gmu[i])
				j := r.IntN(len(m.ls))
				check("ρ", m.ls, j, gls[j])
				a := 1 + r.IntN(m.nOut-1) // an entry of L's strictly lower part
				q := a*m.nOut + r.IntN(a)
				check("L", m.lo, q, glo[q])
			}
		})
	}
}
