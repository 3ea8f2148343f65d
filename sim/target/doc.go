// Package target holds two-dimensional target densities: the problems of
// the gallery, which have no data set and no predictive band, only an
// unnormalised log density over two named parameters and a box that holds
// all but a negligible part of its mass.
//
// A Target is evaluated in the hot loop of every sampler and variational
// family, so its methods take and return fixed-size arrays by value: a
// call allocates nothing. A Target is immutable once built; controls (a
// correlation, a curvature) are fixed at construction, and a new value of
// a control builds a new Target.
//
// # The built-in targets
//
// Each is built from a Config whose zero value is the default: ρ = 0 is
// the Gaussian's default, the funnel's NonCentred is false (centred), and
// a zero curvature, separation, weight, radius or width, none of which is
// an allowed value, stands for its control's default. A Config is
// validated against the ranges Specs lists: a value outside them is a
// *sim.FieldError naming the control and its range. Specs is the registry
// a command line's --help and a page list; New builds a target from its
// name and a set of controls.
//
//   - gaussian: correlation rho and scale_ratio s, Σ = [[1, ρs], [ρs, s²]].
//   - banana: the twisted Gaussian of Haario, Saksman & Tamminen (1999),
//     x ~ N(0, 1), y | x ~ N(b(x² − 1), 1), curvature b.
//   - funnel: Neal's funnel (Neal 2003), v ~ N(0, 3²), x | v ~ N(0, eᵛ).
//     Centred, the samplers see (v, x) and fixed-step HMC diverges in the
//     neck; non-centred they see (v, z), z ~ N(0, 1), a plain Gaussian,
//     and the page shows x = z·e^{v/2} (the Displayed interface).
//   - mixture: two unit Gaussians at (∓d/2, 0) with weights w and 1 − w.
//   - ring: −(‖θ‖ − r)²/(2σ²), radius r and width σ.
//   - squiggle: x ~ N(0, 2²), y | x ~ N(1.5 sin(2x), 0.3²).
//   - logistic: Bayesian logistic regression of O-ring damage on launch
//     temperature (the 23 Space Shuttle flights before Challenger, Dalal,
//     Fowlkes & Hoadley 1989), temperature standardised, priors
//     N(0, 2.5²) on the intercept alpha and the slope b (beta names a
//     distribution in Stan's notation, which Source writes).
//
// Each target's Source is its model in Stan notation, with the controls'
// values written in, the start a typed-density parser needs.
//
// # Boxes
//
// A box holds all but about 1e-6 of the mass: ±5 standard deviations of
// each conditional Gaussian (a two-sided tail of 5.7e-7 each), taken at
// the extremes of its mean. The centred funnel is the exception: x's
// marginal has tails so heavy that a box holding 1 − 1e-6 of it would hide
// the neck, so its box is cut for drawing (v ∈ [−15, 15], x ∈ [−20, 20])
// and its exact answer is computed in the non-centred coordinates, whose
// box does hold the mass (the Quadrature interface).
//
// # The exact answer
//
// NewGrid evaluates a target on an n × n grid over its box and normalises
// by the midpoint rule: log Z, the marginals, mean, covariance, quantiles,
// reference draws (a cell by its mass, then a uniform point inside it) and
// KL(q‖p) for a q with a density, both normalised on the grid. For a
// smooth density that decays inside the box the midpoint rule converges
// faster than any power of the spacing h (its error is that of the
// trapezoid rule on a function that vanishes with all its derivatives at
// the edges, of order exp(−2π²σ²/h²) for a Gaussian of sd σ), so the error
// is the box's truncation, about 1e-6 of the mass.
//
// A density the uniform grid does not resolve is caught by comparing the
// midpoint rule's log Z with the trapezoid rule's on the cells' corners:
// their leading errors are equal and opposite, so their gap is twice the
// error (Grid.LogZErr is half of it). Past 10⁻⁶ the grid is remade on
// sinh-mapped axes, x = c + a·sinh(u) uniform in u about the box's
// centre, each cell weighted by the map's Jacobian: cells 10⁻⁵ of the
// box wide at its centre, of relative width 0.19 (at n = 256) far from
// it, reaching 10⁵ box widths out. A funnel typed in its own coordinates
// is integrated so, neck and tails, with no Quadrature route; its mass
// outside the box counts in log Z and the moments, its marginals are
// the box's bins' average densities (their masses by Gauss–Legendre
// along the axis), and its quantiles beyond the box are reported at the
// box's edge. Every built-in target passes on
// the uniform grid.
//
// EnergyDistance compares a sampler's draws with the reference draws. A
// grid is bounded (n ≤ MaxGridSize, draws ≤ MaxDraws); caching grids by
// target and controls is the caller's (a target's Name and controls are
// its key).
package target
