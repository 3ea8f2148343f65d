package numeric_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
)

// nxFirstStep checks that p moved by exactly −lr·sign(g) from before, the
// first Adam step with ε = 0: m̂ = g, v̂ = g², so the step is lr·g/|g|.
func nxFirstStep(t *testing.T, name string, before, p, g *mat.Dense, lr float64) {
	t.Helper()
	r, c := p.Dims()
	for i := range r {
		for j := range c {
			gij := g.At(i, j)
			want := before.At(i, j) - lr*math.Copysign(1, gij)
			if math.Abs(p.At(i, j)-want) > 1e-15*math.Max(1, math.Abs(want)) {
				t.Errorf("%s[%d,%d]: %.17g, want %.17g (g = %g)", name, i, j, p.At(i, j), want, gij)
			}
		}
	}
}

func TestAdamFirstStepIsSign(t *testing.T) {
	const lr = 0.01
	cfg := numeric.DefaultAdam(lr)
	cfg.Eps = 0
	p := mat.NewDense(2, 3, []float64{1, -2, 0.5, 3, 0, -7})
	g := mat.NewDense(2, 3, []float64{1e-8, -3, 250, -1e-3, 0.7, 1e4})
	before := mat.DenseCopyOf(p)
	numeric.NewAdam(cfg).Step([]*mat.Dense{p}, []*mat.Dense{g})
	nxFirstStep(t, "eps=0", before, p, g, lr)

	// With Keras's ε the step is lr·s|g|/(s|g|+ε), s = √(1−β₂), so it falls
	// short of lr by at most lr·ε/(s|g|).
	def := numeric.DefaultAdam(lr)
	p = mat.DenseCopyOf(before)
	numeric.NewAdam(def).Step([]*mat.Dense{p}, []*mat.Dense{g})
	s := math.Sqrt(1 - def.Beta2)
	for i := range 2 {
		for j := range 3 {
			a := math.Abs(g.At(i, j))
			want := before.At(i, j) - math.Copysign(lr*s*a/(s*a+def.Eps), g.At(i, j))
			if math.Abs(p.At(i, j)-want) > 1e-15*math.Max(1, math.Abs(want)) {
				t.Errorf("default eps [%d,%d]: %.17g, want %.17g", i, j, p.At(i, j), want)
			}
		}
	}
	// A zero gradient does not move the parameter.
	z := mat.NewDense(1, 1, []float64{4})
	numeric.NewAdam(def).Step([]*mat.Dense{z}, []*mat.Dense{mat.NewDense(1, 1, nil)})
	if z.At(0, 0) != 4 {
		t.Errorf("zero gradient moved the parameter to %g", z.At(0, 0))
	}
}

// Keras's update α√(1−β₂ᵗ)/(1−β₁ᵗ)·m/(√v+ε) is the paper's
// α·m̂/(√v̂ + ε/√(1−β₂ᵗ)). Check against that textbook form over many steps
// of arbitrary gradients.
func TestAdamMatchesTextbook(t *testing.T) {
	cfg := numeric.AdamConfig{LR: 0.03, Beta1: 0.8, Beta2: 0.99, Eps: 1e-3}
	opt := numeric.NewAdam(cfg)
	r := numeric.NewRand(20)
	p := mat.NewDense(1, 4, []float64{1, 2, 3, 4})
	g := mat.NewDense(1, 4, nil)
	ref := []float64{1, 2, 3, 4}
	m, v := make([]float64, 4), make([]float64, 4)
	for step := 1; step <= 50; step++ {
		for j := range 4 {
			g.Set(0, j, r.NormFloat64()*float64(j+1))
		}
		opt.Step([]*mat.Dense{p}, []*mat.Dense{g})
		b1t, b2t := math.Pow(cfg.Beta1, float64(step)), math.Pow(cfg.Beta2, float64(step))
		for j := range 4 {
			gj := g.At(0, j)
			m[j] = cfg.Beta1*m[j] + (1-cfg.Beta1)*gj
			v[j] = cfg.Beta2*v[j] + (1-cfg.Beta2)*gj*gj
			mh, vh := m[j]/(1-b1t), v[j]/(1-b2t)
			ref[j] -= cfg.LR * mh / (math.Sqrt(vh) + cfg.Eps/math.Sqrt(1-b2t))
		}
	}
	for j := range 4 {
		if math.Abs(p.At(0, j)-ref[j]) > 1e-13 {
			t.Errorf("θ[%d] = %.17g, textbook %.17g", j, p.At(0, j), ref[j])
		}
	}
}

// On f(θ) = ½ Σ aⱼ(θⱼ − cⱼ)², curvatures spanning 10⁴, Adam reaches the
// minimiser c from 0. Near c the second moment v still remembers the larger
// early gradients, so Adam acts as momentum gradient descent with a fixed
// diagonal preconditioner and converges linearly rather than circling at
// distance ~lr. 5000 steps at lr 0.01 leave |θ − c| ≈ 1e-15 (measured);
// we require 1e-8, which a wrong bias correction or sign would miss by far.
func TestAdamConvergesOnQuadratic(t *testing.T) {
	a := []float64{1, 10, 0.1, 100}
	c := []float64{1, -2, 3, 0.5}
	p := mat.NewDense(2, 2, nil)
	g := mat.NewDense(2, 2, nil)
	opt := numeric.NewAdam(numeric.DefaultAdam(0.01))
	params, grads := []*mat.Dense{p}, []*mat.Dense{g}
	raw, graw := p.RawMatrix().Data, g.RawMatrix().Data
	for range 5000 {
		for j := range raw {
			graw[j] = a[j] * (raw[j] - c[j])
		}
		opt.Step(params, grads)
	}
	for j := range raw {
		if math.Abs(raw[j]-c[j]) > 1e-8 {
			t.Errorf("θ[%d] = %.10f, minimiser %g", j, raw[j], c[j])
		}
	}
}

// A parameter whose shape changes restarts its moments (its next step is a
// first step again) while the others keep theirs; Reset restarts all, and
// SetLR sets the step length.
func TestAdamShapeChangeAndReset(t *testing.T) {
	cfg := numeric.DefaultAdam(0.05)
	cfg.Eps = 0
	opt := numeric.NewAdam(cfg)
	a, b := mat.NewDense(2, 3, nil), mat.NewDense(1, 2, nil)
	ga := mat.NewDense(2, 3, []float64{1, -1, 2, -2, 3, -3})
	gb := mat.NewDense(1, 2, []float64{0.5, -4})
	for range 3 {
		opt.Step([]*mat.Dense{a, b}, []*mat.Dense{ga, gb})
	}
	// Grow a to 3×3; flip b's gradient so a continuing b does not move by lr.
	a = mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	ga = mat.NewDense(3, 3, []float64{1, -2, 3, -4, 5, -6, 7, -8, 9})
	gb.Scale(-1, gb)
	beforeA, beforeB := mat.DenseCopyOf(a), mat.DenseCopyOf(b)
	opt.Step([]*mat.Dense{a, b}, []*mat.Dense{ga, gb})
	nxFirstStep(t, "reshaped", beforeA, a, ga, cfg.LR)
	if d := beforeB.At(0, 0) - b.At(0, 0); math.Abs(math.Abs(d)-cfg.LR) < 1e-3 {
		t.Errorf("unchanged parameter moved by %g, as if restarted", d)
	}

	// Shrink a to 2×2 (dropping inducing points, say): a first step again,
	// even though the old buffers are large enough to be reused.
	opt.Step([]*mat.Dense{a, b}, []*mat.Dense{ga, gb})
	a = mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	ga = mat.NewDense(2, 2, []float64{-1, 2, -3, 4})
	beforeA = mat.DenseCopyOf(a)
	opt.Step([]*mat.Dense{a, b}, []*mat.Dense{ga, gb})
	nxFirstStep(t, "shrunk", beforeA, a, ga, cfg.LR)

	opt.Reset()
	opt.SetLR(0.2)
	beforeB = mat.DenseCopyOf(b)
	opt.Step([]*mat.Dense{b}, []*mat.Dense{gb}) // shorter list drops a's state
	nxFirstStep(t, "after Reset and SetLR", beforeB, b, gb, 0.2)
}

// Step updates a view in place without touching the rest of its backing
// matrix (row stride differs from the number of columns).
func TestAdamView(t *testing.T) {
	cfg := numeric.DefaultAdam(0.1)
	cfg.Eps = 0
	big := mat.NewDense(3, 4, nil)
	view := big.Slice(1, 3, 1, 3).(*mat.Dense)
	g := mat.NewDense(2, 2, []float64{1, -1, 2, -2})
	numeric.NewAdam(cfg).Step([]*mat.Dense{view}, []*mat.Dense{g})
	want := mat.NewDense(3, 4, []float64{
		0, 0, 0, 0,
		0, -0.1, 0.1, 0,
		0, -0.1, 0.1, 0,
	})
	if !mat.EqualApprox(big, want, 1e-15) {
		t.Errorf("after step on a view:\n%v", mat.Formatted(big))
	}
}

// nxAdamProblem has the shapes of the GIP model: three 51×50-ish layers.
func nxAdamProblem() (params, grads []*mat.Dense) {
	r := numeric.NewRand(21)
	for _, s := range [][2]int{{100, 2}, {100, 51}, {100, 51}, {100, 1}, {1, 1}} {
		p, g := mat.NewDense(s[0], s[1], nil), mat.NewDense(s[0], s[1], nil)
		numeric.FillNormal(g.RawMatrix().Data, r)
		params, grads = append(params, p), append(grads, g)
	}
	return params, grads
}

func TestAdamStepAllocs(t *testing.T) {
	params, grads := nxAdamProblem()
	opt := numeric.NewAdam(numeric.DefaultAdam(1e-2))
	opt.Step(params, grads) // warm-up allocates the moments
	if a := testing.AllocsPerRun(100, func() { opt.Step(params, grads) }); a != 0 {
		t.Errorf("Adam.Step allocates %v per call after warm-up", a)
	}
}

func BenchmarkAdamStep(b *testing.B) {
	params, grads := nxAdamProblem()
	opt := numeric.NewAdam(numeric.DefaultAdam(1e-2))
	opt.Step(params, grads)
	b.ReportAllocs()
	for b.Loop() {
		opt.Step(params, grads)
	}
}

// StepProductLowRank against StepProduct with the gradient fa·fb formed by a
// plain loop and W = V ⊙ u formed likewise, over five steps, on shapes whose
// columns are not a multiple of the block width (and one narrower than a
// block), ranks 1, 2 and 21. Only the gradient's rounding differs: a k-term
// sum in another order, relative error ≲ k·2⁻⁵³ ≈ 2.4e-15 of Σ|a||b|; Adam's
// step m/(√v + ε) is Lipschitz in g with constant about 1/|g| near the
// sign-like early steps, so the two updates δ ≤ lr differ by ≲ 1e-14·lr.
// What binds is p's own rounding: p − δ may round to neighbouring values,
// one ulp (2⁻⁵²·|p|) apart, at each of the five steps, and w = p ⊙ u adds
// its own rounding: |Δ| ≤ 6·2⁻⁵²·|p| + 5·1e-14·lr·|u| (|u| ≲ 4 here), within
// 6·2⁻⁵²·|p| + 1e-12·lr. A wrong block, row or scale misses that by orders
// of magnitude.
func TestAdamStepProductLowRank(t *testing.T) {
	for _, c := range []struct{ r, c, k int }{{64, 2701, 21}, {64, 2701, 2}, {7, 100, 1}, {5, 513, 3}, {130, 40, 4}} {
		r := numeric.NewRand(uint64(31 + c.k))
		const lr = 1e-3
		fa, fb := make([]float64, c.r*c.k), make([]float64, c.k*c.c)
		u := make([]float64, c.c)
		v0 := make([]float64, c.r*c.c)
		numeric.FillNormal(u, r)
		numeric.FillNormal(v0, r)
		mk := func() (params, grads []*mat.Dense, w *mat.Dense, opt *numeric.Adam) {
			p := mat.NewDense(c.r, c.c, append([]float64(nil), v0...))
			small := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
			w = mat.NewDense(c.r, c.c, nil)
			return []*mat.Dense{small, p}, []*mat.Dense{mat.NewDense(2, 3, []float64{1, -1, 2, -2, 3, -3}), mat.NewDense(c.r, c.c, nil)}, w, numeric.NewAdam(numeric.DefaultAdam(lr))
		}
		pA, gA, wA, optA := mk()
		pB, gB, wB, optB := mk()
		gB[1] = nil // not read
		for step := range 5 {
			numeric.FillNormal(fa, r)
			numeric.FillNormal(fb, r)
			dense := gA[1].RawMatrix().Data
			for i := range c.r {
				for j := range c.c {
					var s float64
					for l := range c.k {
						s += fa[i*c.k+l] * fb[l*c.c+j]
					}
					dense[i*c.c+j] = s
				}
			}
			optA.StepProduct(pA, gA, 1, u, wA)
			optB.StepProductLowRank(pB, gB, 1, u, wB,
				blas64.General{Rows: c.r, Cols: c.k, Stride: c.k, Data: fa},
				blas64.General{Rows: c.k, Cols: c.c, Stride: c.c, Data: fb})
			if !mat.Equal(pA[0], pB[0]) {
				t.Fatalf("%v step %d: the other parameter differs", c, step)
			}
			for _, pair := range [][2]*mat.Dense{{pA[1], pB[1]}, {wA, wB}} {
				a, b := pair[0].RawMatrix().Data, pair[1].RawMatrix().Data
				for j := range a {
					if math.Abs(a[j]-b[j]) > 6*0x1p-52*math.Abs(a[j])+1e-12*lr {
						t.Fatalf("%v step %d: entry %d: %.17g, want %.17g", c, step, j, b[j], a[j])
					}
				}
			}
		}
		if a := testing.AllocsPerRun(10, func() {
			optB.StepProductLowRank(pB, gB, 1, u, wB,
				blas64.General{Rows: c.r, Cols: c.k, Stride: c.k, Data: fa},
				blas64.General{Rows: c.k, Cols: c.c, Stride: c.c, Data: fb})
		}); a != 0 {
			t.Errorf("%v: %v allocations per StepProductLowRank", c, a)
		}
	}
}
