package target

import (
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim"
)

// Method is a method fitted to a target density rather than to a data set:
// a sampler or a variational family in the plane. It has no data and no
// predictive band; what it shows beyond its traces it offers through sim's
// optional interfaces (sim.Chains, sim.Extras, …). The rules of sim.Method
// on goroutines, determinism and io.Closer hold.
type Method interface {
	sim.Stepper
	// Init sets up the method on t with controls c, complete and valid for
	// its spec, drawing all later randomness from r.
	Init(t Target, c sim.Controls, r *rand.Rand) error
}
