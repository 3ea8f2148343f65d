package stan

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// TestBuiltinSources: every built-in target's Source parses, names the
// target's parameters, and is the target's density: at points across the
// box the two log densities differ by one constant (the Source keeps the
// normalising constants a built-in drops) and their gradients agree.
// Both are the same sums in floating point, in other orders: 1e-9 of the
// terms' scale bounds their rounding by a wide margin.
func TestBuiltinSources(t *testing.T) {
	var tgs []target.Target
	for _, s := range target.Specs() {
		tg, err := target.New(s.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		tgs = append(tgs, tg)
	}
	nc := target.NewFunnel(target.FunnelConfig{NonCentred: true})
	g, _ := target.NewGaussian(target.GaussianConfig{Rho: 0.9, ScaleRatio: 2})
	m, _ := target.NewMixture(target.MixtureConfig{Separation: 6, Weight: 0.3})
	tgs = append(tgs, nc, g, m)
	fracs := []target.Point{{0.5, 0.5}, {0.3, 0.4}, {0.7, 0.2}, {0.15, 0.85}, {0.9, 0.6}}
	for _, tg := range tgs {
		src, ok := tg.(target.Sourced)
		if !ok {
			t.Errorf("%s has no Source", tg.Name())
			continue
		}
		d, err := Parse(src.Source())
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tg.Name(), src.Source(), err)
			continue
		}
		if d.Params() != tg.Params() {
			t.Errorf("%s: Source's parameters %v, the target's %v", tg.Name(), d.Params(), tg.Params())
		}
		b := tg.Box()
		var shift float64
		for k, f := range fracs {
			p := target.Point{b.XMin + f[0]*(b.XMax-b.XMin), b.YMin + f[1]*(b.YMax-b.YMin)}
			lt, gt := tg.LogDensityGrad(p)
			ld, gd := d.LogDensityGrad(p)
			scale := 1 + math.Abs(lt) + math.Abs(ld)
			if k == 0 {
				shift = ld - lt
			} else if math.Abs(ld-lt-shift) > 1e-9*scale {
				t.Errorf("%s at %v: Source − target = %.12g, at %v it was %.12g", tg.Name(), p, ld-lt, b, shift)
			}
			for a := range 2 {
				if math.Abs(gd[a]-gt[a]) > 1e-9*(1+math.Abs(gt[a])) {
					t.Errorf("%s at %v: ∂/∂%s = %.12g from the Source, %.12g from the target", tg.Name(), p, tg.Params()[a], gd[a], gt[a])
				}
			}
		}
	}
}
