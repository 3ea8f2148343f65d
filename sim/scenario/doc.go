// Package scenario is the gallery of preset experiments the home page
// offers: each [Scenario] names a data set, one to four methods, their
// control values and the play page's link, and carries a [Claim], what its
// picture teaches, written as checks on the measures the page shows.
//
// The rules of the package:
//
//   - A scenario is data: a new one is a new entry in [All], with its
//     description, its claim and, if the page should show one, a [Sweep].
//   - A claim holds when its scenario is played from step 0 with the
//     scenario's controls ([Scenario.RunControls], the controls its page
//     starts each run with) at the claim's step and at every later step
//     checked, up to five times it, on seeds 1 to 5. TestScenarioClaims
//     plays them through the engine and checks that; -short checks the
//     claim step on seed 1.
//   - The page evaluates the same checks on its live frames
//     (static/app/claim.js), so a [Measure] is a number the page shows, read
//     the way the page reads it.
//
// The home page's scenarios, each with its claim's step, and what they
// teach:
//
//	mfvi-vs-gip-gap         2500  gap: GIP's band widens between the clusters, mean-field's does not
//	in-between              2500  gap: GIP's in-between ratio, live
//	prior-scale             1000  gap: at a small prior scale GIP explains the cubic as noise
//	inducing-points         2500  gap: five inducing points are enough for GIP's band to widen
//	kl-weight               2000  gap: mean-field at β = 1 explains the cubic as noise
//	vi-vs-mcmc              2000  linreg-offset: mean-field too sure of the slope; GIP's and HMC's sd within 15% of the exact
//	robust-gp               300   gp-cauchy: a Cauchy likelihood's mean closer to the truth than a Gaussian one's
//	gp-classification       500   gp-classification: fifty labels recover p(x)
//	periodic-extrapolation  4000  periodic: fBNN's periodic prior extrapolates, mean-field's does not
//	nn-vi-vs-mcmc           1000  gap on a small network: NUTS's band widens, mean-field's does not
//	livi-paper-toy          600   the LIVI paper's toy: NUTS's band widens, LIVI's here does not
//
// BenchmarkScenarioSecondsToClaim (-benchtime 1x) plays each scenario's
// panels together from step 0, as the page does after Play, and reports
// the wall time to the claim step, each panel's steps/s and the process's
// CPU time.
//
// The 2-D gallery page's scenarios are OnTargets: each on a target with
// an exact answer (Target, TargetControls) instead of data, with Panels,
// each a method with its controls and its own target controls over the
// scenario's. Their checks name panels and bound the plane's measures
// (claims_plane.go: sd ratio, KL, ESS per evaluation, R̂, divergences,
// the 5% quantile's error), read off the frames' plane extras as the page
// reads them; TestTargetScenarioClaims plays them through the engine as
// TestScenarioClaims does the others. They are the canonical lessons of
// two dimensions:
//
//	mean-field-too-sure         correlated Gaussian: mean-field's sd √(1 − ρ²) of the exact; full-rank's and NUTS's within 10%
//	reverse-forward-kl          two modes: reverse KL sits on one, forward KL covers both
//	random-walk-vs-hamiltonian  correlated Gaussian: NUTS's ESS per evaluation against Metropolis's, and their R̂
//	funnel-neck                 centred, HMC diverges in the neck and biases v's 5% quantile; non-centred cures it
//	gaussian-cannot-bend        banana: a flow's KL(q‖p) a quarter of the best Gaussian's
//	langevin-bias               Gaussian: unadjusted Langevin's sd 1.25 × the exact at a large step; MALA's within 7%
//
// The package knows no HTTP: handlers renders the gallery and the play
// pages from it, and lists both kinds as JSON (GET /api/scenarios).
package scenario
