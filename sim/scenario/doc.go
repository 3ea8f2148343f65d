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
// The 2-D gallery page's scenarios are OnTargets: each on a target with
// an exact answer (Target, TargetControls) instead of data, with Panels,
// each a method with its controls and its own target controls over the
// scenario's. Their checks name panels and bound the plane's measures
// (claims_plane.go: sd ratio, KL, ESS per evaluation, R̂, divergences,
// the 5% quantile's error), read off the frames' plane extras as the page
// reads them; TestTargetScenarioClaims plays them through the engine as
// TestScenarioClaims does the others.
//
// The package knows no HTTP: handlers renders the gallery and the play
// pages from it, and lists both kinds as JSON (GET /api/scenarios).
package scenario
