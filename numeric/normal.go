package numeric

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// Normals fills slices with standard normal draws about twice as fast as
// FillNormal: the same algorithm as rand.Rand.NormFloat64 (Marsaglia and
// Tsang's ziggurat with 128 strips) on math/rand/v2's PCG-DXSM generator,
// whose state it keeps in registers through the loop instead of calling
// through rand.Rand's Source interface for every word (its words are
// rand.PCG's, bit for bit: TestNormalsPCGIsMathRands). Its draws are not
// NormFloat64's: it is for hot loops that draw many normals a step (fBNN
// draws 50 × 2,701), where FillNormal cost a quarter of the step.
//
// A Normals is not safe for concurrent use.
type Normals struct {
	hi, lo uint64 // PCG state, as rand.NewPCG(hi, lo) starts
}

// NewNormals returns a generator seeded by two words from r, so that a run
// stays reproducible from its *rand.Rand.
func NewNormals(r *rand.Rand) *Normals {
	return &Normals{hi: r.Uint64(), lo: r.Uint64()}
}

// next advances the PCG state (hi, lo) and returns its DXSM output word, as
// rand.PCG.Uint64 does.
func next(hi, lo uint64) (out, nhi, nlo uint64) {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	out = h
	out ^= out >> 32
	out *= cheapMul
	out ^= out >> 48
	out *= l | 1
	return out, h, l
}

// Uint64 returns the generator's next word (rand.PCG's).
func (g *Normals) Uint64() uint64 {
	var u uint64
	u, g.hi, g.lo = next(g.hi, g.lo)
	return u
}

// Fill fills dst with independent standard normal draws. It does not
// allocate.
func (g *Normals) Fill(dst []float64) {
	z := &zigTables
	hi, lo := g.hi, g.lo
	for i := 0; i < len(dst); i++ {
		// The loop without a call keeps the state in registers; a draw
		// outside its strip's rectangle (under 2%) finishes in draw.
		var u uint64
		u, hi, lo = next(hi, lo)
		j := int32(u) // signed: its sign is the draw's
		s := u >> 32 & 0x7f
		x := float64(j) * z.w[s]
		if uint32(max(j, -j)) < z.k[s] {
			dst[i] = x
			continue
		}
		g.hi, g.lo = hi, lo
		dst[i] = g.draw(u)
		hi, lo = g.hi, g.lo
	}
	g.hi, g.lo = hi, lo
}

// draw returns a normal draw starting from the word u, which fell outside
// its strip's rectangle: from the tail beyond zigR for the base strip, else
// accepted under the density's wedge with probability
// (f(x) − f_s)/(f_{s−1} − f_s), else the ziggurat again with a new word.
func (g *Normals) draw(u uint64) float64 {
	z := &zigTables
	for {
		j := int32(u)
		s := u >> 32 & 0x7f
		x := float64(j) * z.w[s]
		if uint32(max(j, -j)) < z.k[s] {
			return x
		}
		if s == 0 {
			// Marsaglia's tail method: exact for the normal beyond zigR.
			for {
				t := -math.Log(g.uniform()) / zigR
				y := -math.Log(g.uniform())
				if y+y >= t*t {
					if j > 0 {
						return zigR + t
					}
					return -zigR - t
				}
			}
		}
		if z.f[s]+g.uniform()*(z.f[s-1]-z.f[s]) < math.Exp(-0.5*x*x) {
			return x
		}
		u = g.Uint64()
	}
}

// uniform returns a draw from (0, 1], never 0 (it is the argument of a
// logarithm).
func (g *Normals) uniform() float64 {
	return float64(g.Uint64()>>11+1) / (1 << 53)
}

// Ziggurat constants (Marsaglia and Tsang 2000, 128 strips): the base
// strip's right edge r and the common area v of the strips.
const (
	zigR = 3.442619855899
	zigV = 9.91256303526217e-3
)

// zigTable holds, for strip s, k: the fraction of the strip's width (times
// 2³¹) inside the density; w: the strip's width over 2³¹; f: the density
// exp(−x²/2) at the strip's upper edge.
type zigTable struct {
	k [128]uint32
	w [128]float64
	f [128]float64
}

// zigTables is read-only after package initialisation.
var zigTables = newZigTable()

// newZigTable computes the tables as Marsaglia and Tsang's zigset does
// (math/rand/v2's kn, wn and fn hold the same values, wn and fn rounded to
// float32).
func newZigTable() zigTable {
	const m1 = 1 << 31
	var z zigTable
	dn, tn := zigR, zigR
	q := zigV / math.Exp(-0.5*dn*dn)
	z.k[0] = uint32(dn / q * m1)
	z.k[1] = 0
	z.w[0] = q / m1
	z.w[127] = dn / m1
	z.f[0] = 1
	z.f[127] = math.Exp(-0.5 * dn * dn)
	for i := 126; i >= 1; i-- {
		dn = math.Sqrt(-2 * math.Log(zigV/dn+math.Exp(-0.5*dn*dn)))
		z.k[i+1] = uint32(dn / tn * m1)
		tn = dn
		z.f[i] = math.Exp(-0.5 * dn * dn)
		z.w[i] = dn / m1
	}
	return z
}
