package mcmc

// maxDraws caps the retained draws per chain of the summarised parameters.
const maxDraws = 100_000

// fullFloats bounds the memory of the full-θ draws kept per chain for
// Predict: about 4 MB, e.g. 194 draws of the 2702-dimensional BNN, and
// maxDraws for the 3-dimensional linear model.
const fullFloats = 1 << 19

// store keeps retained draws of w values each in bounded memory. It keeps
// every thin-th offered draw; when it holds capacity draws it drops every
// other one and doubles thin, so the kept draws stay equally spaced over the
// whole run and the memory never exceeds capacity·w floats. Every chain sees
// the same sequence of offers, so all chains' stores stay the same length.
type store struct {
	w, capacity int
	thin        int
	offered     int
	data        []float64
}

func newStore(w, capacity int) store {
	capacity = max(2, capacity&^1) // even, so halving is exact
	return store{w: w, capacity: capacity, thin: 1}
}

// len returns the number of kept draws.
func (s *store) len() int { return len(s.data) / s.w }

// add offers one draw v (len w). It allocates only while the backing slice
// grows towards capacity·w.
func (s *store) add(v []float64) {
	s.offered++
	if s.offered%s.thin != 0 {
		return
	}
	if s.len() == s.capacity {
		// Kept draw i was offer (i+1)·thin; keep those at multiples of 2·thin.
		k := 0
		for i := 1; i < s.capacity; i += 2 {
			copy(s.data[k*s.w:(k+1)*s.w], s.data[i*s.w:(i+1)*s.w])
			k++
		}
		s.data = s.data[:k*s.w]
		s.thin *= 2
		if s.offered%s.thin != 0 {
			return
		}
	}
	s.data = append(s.data, v...)
}

// at returns kept draw i (aliases the store).
func (s *store) at(i int) []float64 { return s.data[i*s.w : (i+1)*s.w] }

// column copies value j of every kept draw into dst (appending).
func (s *store) column(dst []float64, j int) []float64 {
	for i := j; i < len(s.data); i += s.w {
		dst = append(dst, s.data[i])
	}
	return dst
}
