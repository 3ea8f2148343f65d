package numeric

import "math/rand/v2"

// All randomness in the project comes from a *rand.Rand built here (PCG from
// math/rand/v2) and handed down explicitly; there is no global source.

const rngGolden = 0x9e3779b97f4a7c15 // 2^64 / φ, the SplitMix64 increment

// rngMix64 is the SplitMix64 finaliser, a bijection on uint64 with good
// avalanche: nearby inputs give unrelated outputs.
func rngMix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// NewRand returns a PCG generator for seed; it is NewStream(seed, 0). A seed
// reproduces a run exactly: the same seed and the same sequence of calls
// give bit-identical draws on every platform and Go release that keeps
// math/rand/v2's PCG and NormFloat64 unchanged.
func NewRand(seed uint64) *rand.Rand { return NewStream(seed, 0) }

// NewStream returns a PCG generator for the pair (seed, stream), so that
// parts of a run (data, initialisation, each chain) draw from independent
// reproducible streams that do not shift when another part draws more.
//
// The pair is mixed into PCG's two state words by SplitMix64. The map is
// injective (hi determines seed, then lo determines stream), so distinct
// pairs never share a starting state.
func NewStream(seed, stream uint64) *rand.Rand {
	hi := rngMix64(seed + rngGolden)
	lo := rngMix64(hi ^ rngMix64(stream+0x632be59bd9b4e019))
	return rand.New(rand.NewPCG(hi, lo))
}

// FillNormal fills dst with independent standard normal draws. It does not
// allocate.
func FillNormal(dst []float64, r *rand.Rand) {
	for i := range dst {
		dst[i] = r.NormFloat64()
	}
}
