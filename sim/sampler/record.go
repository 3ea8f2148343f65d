package sampler

// Record receives one transition's mechanics, for drawing it: the
// proposal and whether it was accepted, a trajectory's leapfrog points,
// NUTS's tree. A caller keeps one Record and passes it to every Step:
// its slices are reused, so once they have grown to a transition's size
// recording allocates nothing (NewRecord sizes them up front).
type Record struct {
	Start    Point // the state the transition began from
	Proposal Point // the point proposed (HMC: the trajectory's end; NUTS: the chosen point)
	Accepted bool
	// Path is HMC's trajectory θ₀ = Start, θ₁, …, θ_L, or NUTS's every
	// leapfrog point in the order computed, Start first: a backward
	// doubling's points run backward from the tree's left end.
	Path []Point
	// Divergent is set when the energy error passed MaxEnergyError, first
	// at Path[DivergentAt] (−1: none).
	Divergent   bool
	DivergentAt int
	// NUTS's tree: the doublings in order, every subtree of depth ≥ 1
	// that was completed or cut short, and the index in Path of the point
	// the transition moved to (0: it stayed at Start).
	Doublings []Doubling
	Subtrees  []Subtree
	Chosen    int
	Stop      Stop // why the tree stopped growing
}

// Stop is why NUTS's tree stopped growing.
type Stop string

const (
	StopUTurn     Stop = "uturn"     // the whole tree's ends turned towards each other
	StopSubtree   Stop = "subtree"   // a subtree of the new half made a U-turn; the half was not merged
	StopDivergent Stop = "divergent" // a leapfrog step of the new half diverged; the half was not merged
	StopMaxDepth  Stop = "max_depth" // the tree reached its max depth
)

// Doubling is one doubling of NUTS's tree: 2^Depth leapfrog steps in
// direction Dir (+1 forward, −1 backward) at Path[First : Last+1]. Merged
// is false when the new half diverged or turned back on itself inside,
// so it was not merged and the tree stopped.
type Doubling struct {
	Dir         int
	Depth       int
	First, Last int
	Merged      bool
}

// Subtree is a subtree of NUTS's tree: the leapfrog points Path[First :
// Last+1], of depth Depth. UTurn is set when its ends' momenta made a
// U-turn (the no-U-turn criterion stopped it), Divergent when a point in
// it diverged.
type Subtree struct {
	Depth       int
	First, Last int
	UTurn       bool
	Divergent   bool
}

// NewRecord returns a Record whose slices hold a transition of up to
// points leapfrog points without growing (HMC: L + 1; NUTS: 2^max_depth).
func NewRecord(points int) *Record {
	return &Record{Path: make([]Point, 0, points), Subtrees: make([]Subtree, 0, points),
		Doublings: make([]Doubling, 0, 16)}
}

func (r *Record) reset(start Point) {
	r.Start, r.Proposal, r.Accepted = start, start, false
	r.Path, r.Doublings, r.Subtrees = r.Path[:0], r.Doublings[:0], r.Subtrees[:0]
	r.Divergent, r.DivergentAt, r.Chosen, r.Stop = false, -1, 0, ""
}
