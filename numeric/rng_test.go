package numeric_test

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

func TestNewStreamReproducible(t *testing.T) {
	a, b := numeric.NewStream(7, 3), numeric.NewStream(7, 3)
	for i := range 1000 {
		if x, y := a.Uint64(), b.Uint64(); x != y {
			t.Fatalf("draw %d: %x != %x for the same (seed, stream)", i, x, y)
		}
	}
	c, d := numeric.NewRand(11), numeric.NewStream(11, 0)
	for range 10 {
		if c.Uint64() != d.Uint64() {
			t.Fatal("NewRand(s) differs from NewStream(s, 0)")
		}
	}
}

func TestNewStreamDistinct(t *testing.T) {
	pairs := [][2]uint64{{7, 0}, {7, 1}, {7, 2}, {8, 0}, {8, 1}, {0, 7}, {1, 7}, {0, 0}, {1, 0}, {0, 1}}
	seen := map[[4]uint64][2]uint64{}
	for _, p := range pairs {
		r := numeric.NewStream(p[0], p[1])
		var k [4]uint64
		for i := range k {
			k[i] = r.Uint64()
		}
		if q, ok := seen[k]; ok {
			t.Fatalf("streams %v and %v start identically", p, q)
		}
		seen[k] = p
	}
}

// Neighbouring streams must look independent: the sample correlation of
// n paired normals has standard error 1/√n under independence; allow 4 SE.
func TestStreamsUncorrelated(t *testing.T) {
	const n = 20000
	for _, p := range [][4]uint64{{1, 0, 1, 1}, {1, 0, 2, 0}, {5, 5, 5, 6}} {
		a, b := numeric.NewStream(p[0], p[1]), numeric.NewStream(p[2], p[3])
		x, y := make([]float64, n), make([]float64, n)
		numeric.FillNormal(x, a)
		numeric.FillNormal(y, b)
		mx, sx := numeric.MeanStd(x)
		my, sy := numeric.MeanStd(y)
		var c float64
		for i := range x {
			c += (x[i] - mx) * (y[i] - my)
		}
		rho := c / n / (sx * sy)
		if se := 1 / math.Sqrt(n); math.Abs(rho) > 4*se {
			t.Errorf("streams %v: correlation %.4f exceeds 4 SE = %.4f", p, rho, 4*se)
		}
	}
}

// Mean has SE 1/√n and the sample variance of normals has SE √(2/n).
func TestFillNormalMoments(t *testing.T) {
	const n = 100000
	x := make([]float64, n)
	numeric.FillNormal(x, numeric.NewRand(1))
	m, s := numeric.MeanStd(x)
	if se := 1 / math.Sqrt(n); math.Abs(m) > 4*se {
		t.Errorf("mean %.5f, want 0 ± %.5f", m, 4*se)
	}
	if se := math.Sqrt(2.0 / n); math.Abs(s*s-1) > 4*se {
		t.Errorf("variance %.5f, want 1 ± %.5f", s*s, 4*se)
	}
}

func TestFillNormalAllocs(t *testing.T) {
	r := numeric.NewRand(2)
	x := make([]float64, 64)
	if a := testing.AllocsPerRun(100, func() { numeric.FillNormal(x, r) }); a != 0 {
		t.Errorf("FillNormal allocates %v per call", a)
	}
}

// FillNormal draws exactly what r.NormFloat64 draws, bit for bit, and
// leaves r where NormFloat64 would: 2,000,000 draws take every strip about
// 15,600 times and the tail and wedge paths about 1,140 and 54,000 times
// (the rejection rates of the ziggurat), so a difference in any table
// entry of the rectangles or in the edge code would show.
func TestFillNormalIsNormFloat64(t *testing.T) {
	a, b := numeric.NewRand(11), numeric.NewRand(11)
	x := make([]float64, 2_000_000)
	numeric.FillNormal(x, a)
	for i, v := range x {
		if w := b.NormFloat64(); math.Float64bits(v) != math.Float64bits(w) {
			t.Fatalf("draw %d: %v, NormFloat64 %v", i, v, w)
		}
	}
	if a.Uint64() != b.Uint64() {
		t.Error("FillNormal left r elsewhere than NormFloat64 would")
	}
}

func BenchmarkFillNormal(b *testing.B) {
	x := make([]float64, 138_050) // an fBNN step's draws on periodic
	r := numeric.NewRand(1)
	for b.Loop() {
		numeric.FillNormal(x, r)
	}
}

func BenchmarkNormFloat64Loop(b *testing.B) {
	x := make([]float64, 138_050)
	r := numeric.NewRand(1)
	for b.Loop() {
		for i := range x {
			x[i] = r.NormFloat64()
		}
	}
}
