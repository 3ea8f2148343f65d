package stan

import (
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/target"
)

// banana is the gallery's banana (a = b = 1) written by hand, the yardstick
// for a typed density's speed.
type banana struct{}

func (banana) Name() string      { return "banana" }
func (banana) Params() [2]string { return [2]string{"x", "y"} }
func (banana) Box() target.Box   { return target.Box{XMin: -4, XMax: 4, YMin: -3, YMax: 12} }
func (b banana) LogDensity(p target.Point) float64 {
	v, _ := b.LogDensityGrad(p)
	return v
}
func (banana) LogDensityGrad(p target.Point) (float64, target.Point) {
	r := p[1] - (p[0]*p[0] - 1)
	return -p[0]*p[0]/2 - r*r/2, target.Point{-p[0] + 2*p[0]*r, -r}
}

const typedBanana = "x ~ normal(0, 1); y ~ normal(x^2 - 1, 1);"

var sink float64

// benchGrad calls LogDensityGrad through the interface, as a sampler does,
// at points that vary so nothing is hoisted. The machine is shared, so
// cpu-ns/op (this process's CPU time) is the figure to compare.
func benchGrad(b *testing.B, t target.Target) {
	b.ReportAllocs()
	p := target.Point{0.3, -0.2}
	c0 := cputime.Process()
	for i := 0; b.Loop(); i++ {
		p[0] = float64(i&63)/32 - 1
		v, g := t.LogDensityGrad(p)
		sink += v + g[0] + g[1]
	}
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkBananaHand(b *testing.B) { benchGrad(b, banana{}) }

func BenchmarkBananaTyped(b *testing.B) {
	d, err := Parse(typedBanana)
	if err != nil {
		b.Fatal(err)
	}
	benchGrad(b, d)
}

func BenchmarkFunnelTyped(b *testing.B) {
	d, err := Parse("v ~ normal(0, 3); x ~ normal(0, exp(v / 2));")
	if err != nil {
		b.Fatal(err)
	}
	benchGrad(b, d)
}
