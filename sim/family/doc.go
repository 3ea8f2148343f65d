// Package family fits variational families to a two-dimensional
// target.Target, one optimiser step at a time: a mean-field Gaussian, a
// full-rank Gaussian, a normalizing flow, and SVGD's particles (the
// method between a family and a sampler). Each exposes what the gallery
// draws and measures: q's log density (for KL(q‖p) on the exact grid),
// draws from q, q's mean and covariance, the step's objective estimate,
// and the target evaluations spent, the x-axis shared with the samplers.
//
// # Coordinates
//
// Every family works in standardised coordinates u = (θ − c)/r, c the
// centre of the target's box and r an eighth of its sides, so the box is
// [−4, 4]² and one learning rate and one starting width suit a Gaussian
// of sd 1 and a funnel of sd 9. Everything exported is in θ. Adam's
// learning rate is in u.
//
// # Parametric families and the divergence
//
// A parametric q is a map u = T_λ(ε) of ε ~ N(0, I): μ + Lε for the
// Gaussians (L = diag(e^d) for mean-field, lower triangular with a
// positive diagonal e^d for full-rank), and for the flow affine coupling
// layers (RealNVP; Dinh, Sohl-Dickstein & Bengio 2017) that alternate the
// coordinate they move, y_b = x_b·e^{s(x_c)} + t(x_c), s and t from a
// one-hidden-layer tanh network of x_c, then u = μ + e^ℓ ⊙ x. Log q is by
// the change of variables, log q(u) = log φ(ε) − log|det ∂T/∂ε|, and at
// any θ by running the map backwards.
//
// Coupling layers rather than planar flows (Rezende & Mohamed 2015): a
// coupling layer inverts in closed form, so log q at a grid point (for
// KL on the grid) and the score ∇λ log q at a fixed point (for forward
// KL) are exact, where a planar flow needs a root finder per point; and
// the banana θ₂ | θ₁ ~ N(b(θ₁² − a²), 1) is itself one coupling layer
// (t(θ₁) a parabola, s constant), so the flow trains on it reliably from
// the identity it starts as (output weights zero). s is bounded by
// 3 tanh(·/3) so that no step can overflow e^s.
//
// Each step draws K points zₖ = T(εₖ), log wₖ = log p̃(zₖ) − log q(zₖ),
// and Adam (numeric.Adam, Keras's constants) takes one step on the loss:
//
//   - ReverseKL, KL(q‖p): the ELBO (1/K)Σ log wₖ, by its reparameterised
//     gradient (Kingma & Welling 2014; Titsias & Lázaro-Gredilla 2014) in
//     its path-derivative form, "sticking the landing" (Roeder, Wu &
//     Duvenaud 2017): (1/K)Σ (∇log p̃ − ∇log q)(zₖ)·∂T/∂λ, which drops
//     the score term −∂λ log q|_z (zero in expectation) and so has no
//     noise at all once q = p (on the banana the flow's KL after the
//     same steps is several times smaller than with the score term).
//     Mode-seeking: on two separated modes a Gaussian settles on the one
//     whose basin it starts in (from the saddle between them, over both:
//     a local optimum too).
//   - ForwardKL, KL(p‖q): its gradient −E_p[∇λ log q_λ(z)], estimated as
//     −Σ w̄ₖ ∇λ log q_λ(zₖ) with self-normalised weights w̄ₖ ∝ wₖ and the
//     draws held fixed (biased, consistent; the fixed point leans
//     towards q by O(χ²(p‖q)/K), hence a default K of 256). Needs no
//     gradient of the target. Mass-covering.
//   - Renyi, the bound L_α = (1−α)⁻¹ log (1/K)Σ wₖ^{1−α} (Li & Turner
//     2016), whose reparameterised gradient is Σ ŵₖ ∇λ log wₖ, ŵ ∝
//     w^{1−α} normalised; α = 1 is the ELBO, α = 0 the importance-weighted
//     bound. Taken in its doubly reparameterised form (Tucker, Lawson,
//     Gu & Maddison 2019): the score term rewritten by E[f·∇λ log q] =
//     E[∇_z f·∂z/∂λ] leaves Σ cₖ (∇log p̃ − ∇log q)(zₖ)·∂T/∂λ with
//     cₖ = αŵₖ + (1−α)ŵₖ², the same expectation (tested) and, like the
//     ELBO's, no noise at q = p. The plain form's signal fades as α → 0
//     (Rainforth et al. 2018); this one's does not.
//
// The score at a fixed point needs no inverse pass: ∇λ log q_λ(z)|_z =
// −[∇_z log q(z)·∂T/∂λ + ∂λ log|det ∂T/∂ε|] at z = T(ε), so every
// gradient is one backward pass through the map with the upstream vector
// ∇log p̃ − ∇log q (reverse, Rényi) or ∇log q (forward); the flow gets
// ∇_z log q = J⁻ᵀ(−ε − ∇_ε log|det J|) by carrying the 2×2 Jacobian J
// forward. The gradients are hand-derived; the tests check each against
// finite differences.
//
// A draw where log p̃ or its gradient is not finite gets weight zero; a
// step where every draw does is skipped. So at a hard edge of the
// support, where reverse KL and Rényi's bound are infinite for any q
// that crosses it, they fit the density's continuation from inside;
// forward KL's weights see the edge.
//
// # SVGD
//
// n particles move along φ(x) = (1/n)Σⱼ [k(xⱼ, x)∇log p̃(xⱼ) +
// ∇_{xⱼ}k(xⱼ, x)] (Liu & Wang 2016), RBF kernel k = exp(−‖x − y‖²/h) in
// θ with the median heuristic h = med²/log n, each particle stepped by
// Adam along φ with the second moment pooled over the particles (so a
// particle's speed stays in proportion to its φ; per-particle Adam moves
// a particle out of every other's reach at the full learning rate for
// ever). A step that takes a particle outside the support is undone.
// n target gradients a step; O(n²) kernel terms.
//
// # Rules
//
// Construction validates the Config (errors are *sim.FieldError naming
// the field and its range) and allocates everything; Step allocates
// nothing and takes microseconds, so a caller cancels between steps. A
// seed fixes the run: training draws, the initialisation, Draw's draws
// and the flow's moment draws come from separate numeric.NewStream
// streams, so drawing never changes training. A family is not safe for
// concurrent use.
//
// The flow's mean and covariance are averaged over 2,048 fixed base
// draws (common random numbers: a smooth function of the parameters, the
// mean within about 2% of an sd); the Gaussians' are exact; SVGD's are
// the particles' (divisor n).
package family
