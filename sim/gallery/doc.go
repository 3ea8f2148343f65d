// Package gallery is the domain layer of the two-dimensional gallery:
// the exact answers it measures against, a run of one method on one
// target paced by its caller, what the plane shows of it, and its
// summary against the truth. The command line calls it (playground run
// --target), as will the engine's adapter for the page; it knows nothing
// of either.
//
// # The exact answer
//
// A Cache holds each target's exact answer (an Exact: target.NewGrid on
// at least 256² cells, on sinh-mapped axes when a uniform grid does not
// resolve the density, the shown coordinates' grid when the target is
// target.Displayed, and 1,000 reference draws), keyed by the target's
// name and its controls with defaults filled in (Key). A Cache is a
// value the caller owns, not package state: one answer is computed once
// however many requests ask for it at the same time (later ones wait for
// the first, or for their context), and the least recently used are
// dropped past a count and a byte bound.
//
// # A run
//
// NewRun builds a Run from a RunConfig: a target and its controls, a
// method (the samplers metropolis, mala, hmc, nuts, langevin; the
// families mfvi, fullrank, flow, svgd: Methods lists them with their
// controls), 1 to MaxChains chains for a sampler, and a seed that fixes
// every random stream. Every bad field is a *sim.FieldError naming the
// field and its range. Step takes n steps (a round of one transition per
// chain, or one optimiser step); StepToBudget steps until the budget,
// density plus gradient evaluations, reaches a count, so that runs
// paced to the same budget end within one step's cost of each other:
// the budget is the common axis of a sampler and a fit (Metropolis and a
// forward-KL fit spend density evaluations, the rest gradient ones). The
// context is checked before every step, and a step allocates nothing
// once the run's buffers are in place (the costly measures below
// allocate, at doublings of the budget only).
//
// Pace steps several runs together, always the one that has spent least,
// so that at every moment their budgets differ by at most one step's
// cost: the equal-budget race.
//
// A sampler's chains start at independent draws from the exact answer:
// stationary from the first transition, so the plane shows mixing, not
// burn-in, and R̂ still flags chains held in the modes they started in.
// RunConfig.Start starts them (or q) at a given point instead. NewRunOn
// runs on an exact answer the caller holds (Cache.ExactFor: a typed
// density).
//
// # What the plane shows
//
// View fills a bounded View: each chain's latest draws (a ring of
// MaxDraws/chains per chain, MaxDraws at most MaxKeptDraws), the latest
// transition's mechanics (the sampler's Record) and, for a family, q's
// density on a ContourSize² grid and QDraws of its draws (SVGD: its
// particles). Everything is in the shown coordinates: the non-centred
// funnel's draws are mapped by ToShown to (v, x), except q's density,
// which is over the box of the coordinates the family is fitted in. The
// browser's plane view (static/app/plane.js) draws it: the exact contours
// and marginals under the draws, q's contours or the particles, and the
// transition, revealed in slow motion on request.
//
// # Against the truth per budget
//
// Each time the budget grows by 2^(1/8) a run adds a Measure to its
// history: the error of the mean in units of the exact sds, the relative
// Frobenius error of the covariance, the ELBO, divergences and
// acceptance; at each doubling also the costly ones: the energy distance
// of up to DistanceDraws kept draws (or particles) to as many reference
// draws, KL(q‖p) on a 64² subgrid of the exact grid for a family with
// a density (a flow's log density is costly), and the
// largest R̂ and smallest bulk ESS over the coordinates. Points evenly
// spaced on a log axis suit the log-log chart, and bound a history to
// eight points per doubling.
//
// Report is the command line's JSON: per shown coordinate the mean and
// sd (q's, or the kept draws' with R̂ and bulk ESS) beside the exact
// ones, the evaluations spent, divergences, the distance to the exact
// answer, and for a family KL on the grid, the ELBO beside log Z and
// Pareto k̂ of q's own draws' log-ratios.
//
// # In the run engine
//
// EngineMethod is a method on one exact answer as the engine's problem
// (a target.Method): Init builds a Run, Step takes one step of it, Set
// sets a live control. Its plane payloads (PlaneExact, Plane, PlaneQ,
// in the browser plane view's frame format) are what the engine's plane
// recorder sends: the exact grid averaged down to MaxPlaneGrid cells a
// side, with its quantiles, once; each frame the latest draws and
// divergences, numbered by each chain's total so that a reader that
// missed frames loses nothing for PlaneTail − 1 of them and knows what
// it missed past that (at most MaxPlaneDraws), the latest transition and
// q's draws where its density is not drawn; and, made at most every
// 200 ms, q's density with its mean and covariance, a payload of its own
// that each viewer is sent once. Where q's density is drawn, making the
// plane draws nothing from q: the plane is paced by the clock, and q's
// draws feed the measures (k̂ among them), which a replay of the same
// steps reproduces. A fit in other coordinates than the shown ones (the
// non-centred funnel) is shown and measured by q's draws, so its
// measures also depend on how often the plane was asked for.
package gallery
