package mfvi

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// With the fixed_noise control (not the test hook) mean-field trains to the
// exact posterior's means and to sds smaller than the exact ones by
// √(1 − ρ²), the known factor for a Gaussian target, and the joint view
// says so: its ellipse is q's diagonal covariance, the exact posterior the
// one model.LinearPosterior gives at σ = 0.5 and τ = s/√2. The schedule and
// the 3% tolerance are TestLinearTrainingConverges' (spread of the iterates
// about 1%); here ρ ≈ −0.93, so the factor, 0.38, is far outside it.
func TestLinearFixedNoiseJoint(t *testing.T) {
	d := linearData()
	m := newMethod(t, d, "linear", sim.Controls{"mc_samples": sim.Num(8), model.FixedNoise: sim.Num(linSigma)}, 5)
	if m.NoiseStd() != linSigma && math.Abs(m.NoiseStd()/linSigma-1) > 1e-15 {
		t.Fatalf("noise %v at Init, want the fixed %v", m.NoiseStd(), linSigma)
	}
	for _, phase := range []struct {
		lr    float64
		mc    float64
		steps int
	}{{0.01, 8, 6000}, {1e-3, 32, 3000}, {1e-4, 32, 2000}} {
		if err := sim.Set(m, nil, "lr", sim.Num(phase.lr)); err != nil {
			t.Fatal(err)
		}
		if err := sim.Set(m, nil, "mc_samples", sim.Num(phase.mc)); err != nil {
			t.Fatal(err)
		}
		for range phase.steps {
			m.Step()
		}
	}
	if math.Abs(m.NoiseStd()/linSigma-1) > 1e-15 {
		t.Errorf("fixed noise moved to %v", m.NoiseStd())
	}
	j, ok := m.Views()["joint"].(*model.Joint)
	if !ok || j.Gaussian == nil || j.Exact == nil {
		t.Fatalf("joint view %+v: want mean-field's Gaussian and the exact posterior", j)
	}
	exact, _ := model.LinearPosterior(d.X, d.Y, linSigma, linSp)
	for i := range 2 {
		for k := range 2 {
			if math.Abs(j.Exact.Cov[i][k]-exact.Cov[i][k]) > 1e-12*exact.Cov[i][i] {
				t.Fatalf("joint's exact posterior %+v, want %+v", *j.Exact, exact)
			}
		}
	}
	q := *j.Gaussian
	if q.Cov[0][1] != 0 || q.Cov[1][0] != 0 {
		t.Errorf("mean-field's ellipse has covariance %v; it must be diagonal", q.Cov)
	}
	// The ellipse is q itself: b0 is W's row 1, b its row 0.
	// (exp(ℓ)² against exp(2ℓ): a few ulps.)
	if q.Mean != [2]float64{m.mu[1], m.mu[0]} || math.Abs(q.Cov[0][0]/math.Exp(2*m.ls[1])-1) > 1e-14 || math.Abs(q.Cov[1][1]/math.Exp(2*m.ls[0])-1) > 1e-14 {
		t.Errorf("joint %+v is not q (μ %v, log s %v)", q, m.mu, m.ls)
	}
	r := exact.Corr()
	shrink := math.Sqrt(1 - r*r)
	sd, sdq := exact.SD(), q.SD()
	for i, name := range j.Names {
		t.Logf("%s: mean %.5f (exact %.5f), sd %.5f = %.4f × exact %.5f (√(1−ρ²) = %.4f)", name, q.Mean[i], exact.Mean[i], sdq[i], sdq[i]/sd[i], sd[i], shrink)
		if math.Abs(q.Mean[i]-exact.Mean[i]) > 0.03*sdq[i] {
			t.Errorf("%s: mean %v, exact %v", name, q.Mean[i], exact.Mean[i])
		}
		if math.Abs(sdq[i]/sd[i]/shrink-1) > 0.03 {
			t.Errorf("%s: sd %v is %.4f of the exact %v; mean-field's optimum is √(1−ρ²) = %.4f of it", name, sdq[i], sdq[i]/sd[i], sd[i], shrink)
		}
	}
	if j.Sigma != nil || j.FixedNoise != m.NoiseStd() {
		t.Errorf("σ held: joint reports σ %+v, fixed %v", j.Sigma, j.FixedNoise)
	}
	if m.WeightName(0) != "slope b" || m.WeightName(1) != "intercept b0" {
		t.Errorf("weights named %q, %q", m.WeightName(0), m.WeightName(1))
	}
}

// Without the control the linear model is as before (σ learned) and the
// joint view has no exact posterior to hold the fit against; the network
// sends no joint view.
func TestJointWithoutFixedNoise(t *testing.T) {
	m := newMethod(t, linearData(), "linear", nil, 5)
	for range 10 {
		m.Step()
	}
	j := m.Views()["joint"].(*model.Joint)
	if j.Exact != nil || j.Sigma == nil || j.Sigma.Mean != m.NoiseStd() || m.NoiseStd() == math.Exp(model.InitLogNoise) {
		t.Errorf("σ learned: joint %+v, noise %v", j, m.NoiseStd())
	}
	if v := newMethod(t, loadData(t, "gap"), "bnn", nil, 5).Views(); v != nil {
		t.Errorf("the BNN sends views %v", v)
	}
}
