package gip

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Views sends, on the linear model, the "joint" view (model.Joint): with one
// layer q(W) is exactly Gaussian, N(M, Σ) with P = σ_0⁻² I + ΦᵀΛΦ,
// Φ = [U₀, 1], Σ = P⁻¹ and M = ΣΦᵀΛV (package doc), a full 2×2 covariance,
// beside the exact posterior when σ is held; and on every model the
// first layer's inducing inputs, "inducing" (setdata.go).
func (m *Method) Views() map[string]any {
	if m.d == nil {
		return nil
	}
	out := map[string]any{"inducing": m.inducingView()}
	if m.modelName != model.Linear {
		return out
	}
	q := m.linearQ()
	j := model.NewJoint(m.d.X, m.d.Y, m.fixedNoise(), m.priorStd(0))
	j.Gaussian = &q
	if j.FixedNoise == 0 {
		j.Sigma = &sim.Moments{Mean: m.NoiseStd()} // a point estimate: no sd
	}
	out["joint"] = j
	return out
}

// linearQ is q(b0, b) on the linear model, in that order (W's rows are
// [b; b0]: the slope multiplies x, the ones column carries b0).
func (m *Method) linearQ() model.Gauss2 {
	ip := 1 / (m.priorStd(0) * m.priorStd(0))
	// P and ΦᵀΛv in W's row order: index 0 the slope, 1 the intercept.
	p00, p01, p11 := ip, 0.0, ip
	var r0, r1 float64
	for i := range m.m {
		u, lam, v := m.u0.At(i, 0), math.Exp(m.logLam[0].At(i, 0)), m.v[0].At(i, 0)
		p00 += lam * u * u
		p01 += lam * u
		p11 += lam
		r0 += lam * u * v
		r1 += lam * v
	}
	det := p00*p11 - p01*p01
	c00, c01, c11 := p11/det, -p01/det, p00/det // Σ in W's order
	mb, mb0 := c00*r0+c01*r1, c01*r0+c11*r1
	return model.Gauss2{Mean: [2]float64{mb0, mb}, Cov: [2][2]float64{{c11, c01}, {c01, c00}}}
}

// fixedNoise is σ when held (model.FixedNoise), else 0.
func (m *Method) fixedNoise() float64 {
	if !m.freezeNoise {
		return 0
	}
	return m.NoiseStd()
}
