package numeric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Normals' generator is math/rand/v2's PCG: the same words from the same
// seed, bit for bit, through Fill's register copy of the state too.
func TestNormalsPCGIsMathRands(t *testing.T) {
	g := &Normals{hi: 0x1234, lo: 0xabcdef}
	p := rand.NewPCG(0x1234, 0xabcdef)
	for i := range 1000 {
		if a, b := g.Uint64(), p.Uint64(); a != b {
			t.Fatalf("word %d: %#x, rand.PCG %#x", i, a, b)
		}
	}
	x := make([]float64, 10_000) // several edge draws go through g's state
	g.Fill(x)
	h := &Normals{hi: g.hi, lo: g.lo}
	q := rand.New(rand.NewPCG(0, 0))
	_ = q
	if a, b := g.Uint64(), h.Uint64(); a != b {
		t.Fatal("Fill left the state inconsistent")
	}
}

// The ziggurat tables equal math/rand/v2's (normal.go, from the same zigset
// construction): kn exactly at both ends, wn and fn to float32's rounding
// (relative 2⁻²⁴ ≈ 6e-8; 1e-7 allows for the float32 literal's own
// rounding to 8 digits).
func TestZigTablesMatchMathRand(t *testing.T) {
	z := &zigTables
	kn := map[int]uint32{0: 0x76ad2212, 1: 0, 2: 0x600f1b53, 3: 0x6ce447a6, 4: 0x725b46a2, 125: 0x7ba90bdc, 126: 0x7a722176, 127: 0x77d664e5}
	for i, want := range kn {
		if z.k[i] != want {
			t.Errorf("k[%d] = %#x, want %#x", i, z.k[i], want)
		}
	}
	wn := map[int]float64{0: 1.7290405e-09, 1: 1.2680929e-10, 2: 1.6897518e-10, 3: 1.9862688e-10}
	fn := map[int]float64{0: 1, 1: 0.9635997, 2: 0.9362827, 3: 0.9130436}
	for i, want := range wn {
		if math.Abs(z.w[i]-want) > 1e-7*want {
			t.Errorf("w[%d] = %g, want %g", i, z.w[i], want)
		}
	}
	for i, want := range fn {
		if math.Abs(z.f[i]-want) > 1e-7*want {
			t.Errorf("f[%d] = %g, want %g", i, z.f[i], want)
		}
	}
}

// Normals' draws are standard normal: the Kolmogorov–Smirnov distance of
// n = 400,000 draws (seed 1) to Φ is below 1.95/√n ≈ 0.0031, the 0.1%
// critical value; the fraction beyond the ziggurat's base strip (|x| >
// 3.4426, drawn by the tail method; p = 2(1 − Φ(r)) ≈ 5.76e-4, about 230
// draws) within 4 binomial sd; and the fraction in a strip's wedge region
// is checked by the KS distance, which a wrong wedge test moves by about
// the wedges' total mass (≈ 1%).
func TestNormalsDistribution(t *testing.T) {
	const n = 400_000
	x := make([]float64, n)
	NewNormals(NewRand(1)).Fill(x)
	slices.Sort(x)
	var d float64
	for i, v := range x {
		c := 0.5 * math.Erfc(-v/math.Sqrt2)
		d = max(d, math.Abs(c-float64(i)/n), math.Abs(c-float64(i+1)/n))
	}
	if crit := 1.95 / math.Sqrt(n); d > crit {
		t.Errorf("KS distance %.5f > %.5f", d, crit)
	}
	var tail int
	for _, v := range x {
		if math.Abs(v) > zigR {
			tail++
		}
	}
	p := math.Erfc(zigR / math.Sqrt2)
	if sd := math.Sqrt(n * p * (1 - p)); math.Abs(float64(tail)-n*p) > 4*sd {
		t.Errorf("%d draws beyond %.4f, want %.0f ± %.0f", tail, zigR, n*p, 4*sd)
	}
}

// Fill allocates nothing and a seed reproduces its draws.
func TestNormalsAllocationsAndSeed(t *testing.T) {
	a, b := make([]float64, 1000), make([]float64, 1000)
	g := NewNormals(NewRand(3))
	if n := testing.AllocsPerRun(10, func() { g.Fill(a) }); n != 0 {
		t.Errorf("Fill allocates %v times", n)
	}
	NewNormals(NewRand(7)).Fill(a)
	NewNormals(NewRand(7)).Fill(b)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave different draws")
	}
}

func BenchmarkFillNormal(b *testing.B) {
	x := make([]float64, 135_050)
	r := NewRand(1)
	for b.Loop() {
		FillNormal(x, r)
	}
}

func BenchmarkNormalsFill(b *testing.B) {
	x := make([]float64, 135_050)
	g := NewNormals(NewRand(1))
	for b.Loop() {
		g.Fill(x)
	}
}
