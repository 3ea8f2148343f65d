// Package wire owns every JSON shape Posterior Playground sends to a
// browser or a script: the frames a run's viewers receive over the
// websocket, the commands they send back, the stream's error and queued
// messages, and the bodies of the JSON API.
//
// # The stream
//
// GET /api/runs/{id}/stream upgrades to a websocket. The server sends a
// Frame about 25 times a second while the run changes:
//
//	{"type":"frame", "full", "epoch", "step", "status", "message", "budget",
//	 "controls", "speed", "objective", "trace", "marks", "diagnostics",
//	 "steps_per_sec", "data", "predictive", <extras>…}
//
// objective and trace hold the points kept since this viewer's last frame
// ([step, value] pairs); full says they replace what the viewer had (its
// first frame, or the first after a reset, which changes epoch).
// predictive, a Band on the data set's grid in the user's units (x, mean,
// lo, hi = mean ∓ 2 sd of f, and a few sampled functions, to 6 significant
// digits; f_mean and f_sd, f's moments in closed form and in full, for the
// GP methods), and each extra are sent only when they changed since this
// viewer's last frame; data, the training points, with the first frame
// and after an edit. marks are the live control changes since the last
// reset, each {step, name, value}: the plots draw them, and a link
// replays them.
//
// The viewer sends one Op per message (at most 4 KiB):
//
//	{"op":"play"} {"op":"pause"} {"op":"reset"} {"op":"continue"}
//	{"op":"step","n":k}               k steps, then pause
//	{"op":"set","name":c,"value":v}   a control: a number, or a string for a choice
//	{"op":"speed","value":s}          at most s steps a second; 0 for no cap
//	{"op":"weight","n":i}             the weight whose marginal the frames carry
//	{"op":"data","x":[…],"y":[…]}     edited training points, in the user's units
//	{"op":"data","edit":e}            the same in a play link's edit= encoding
//	{"op":"data"}                     restore the data set
//	{"op":"inducing","n":i,"value":x} move GIP's inducing input i to x
//
// A refused command is answered with an Error,
// {"type":"error","op","field","message"}, naming the field and what is
// allowed; it changed nothing. A command the run cannot answer yet (inside
// a long step, or still preparing) is answered with Queued,
// {"type":"queued","op","field","step","status","message"}, and then
// applied or refused (an error message) when the run is next between
// steps, never both.
//
// # Extras
//
// A frame carries family-specific data as Extras: a key and a payload at
// the top level of the frame, such as a sampler's "draws" (DrawSet: recent
// draws per chain, R-hat, ESS and rank plots), a weight-space method's
// "weights" (WeightSet: one weight's marginal), or "joint" (a
// two-parameter posterior against the exact one). The browser keeps one
// view module per key (static/app/views.js) and hands it the payload of
// every frame that carries that key, so a new view is one Go producer and
// one JS module; neither the frame nor the stream changes. NewExtra
// refuses a key the frame itself uses.
//
// # The gallery's plane
//
// A run on a 2-D target (the gallery) carries three extras, whose shapes
// are sim/gallery's: "plane_exact" (PlaneExact: the exact grid, box,
// log Z, mean, cov, and each parameter's exact q05 and q95), sent once per
// exact answer; "plane_history" (the history against the truth, one
// Measure a point: evals, steps, mean_error, cov_error, sd, energy_distance,
// kl, kl_se, elbo, rhat, ess_bulk, ess_per_eval, q05, q95, divergences,
// acceptance; the costly ones null between doublings of the budget); and
// "plane" (Plane), the plane now. A plane's draws are numbered, not "since
// the last frame": the hub reads a run's latest frame at its own pace and
// a slow viewer is handed only the latest, so a frame may never reach a
// viewer. totals[c] counts chain c's draws so far, and draws (x, y,
// chain: chain by chain) hold chain c's numbered from[c] to totals[c] − 1,
// the draws of this plane and the PlaneTail − 1 (3) before it, at most
// 4,000 in all. A viewer keeps have[c], appends the draws numbered
// have[c] or more, counts from[c] − have[c] as missed when positive, and
// sets have[c] = totals[c]: skipping up to three frames in a row loses
// nothing, and past that it knows how many draws it did not get.
// divergences are numbered the same way, over all chains, by
// divergence_from and divergence_total. A total below have[c], or a new
// key, is a new run.
//
// # Encoding once
//
// A run builds the shared parts of a frame once and seals them (Band.Seal,
// NewExtra): their bytes are encoded in the run's goroutine, and every
// viewer's FrameEncoder splices the same bytes into its frame instead of
// encoding them again. Non-finite numbers are written as null: JSON has no
// NaN.
//
// # The API
//
// Every body below is a type here; an error is an APIError, {"field",
// "message"}, with a 4xx status.
//
//	GET    /api/methods[?data=NAME&seed=S]  every method's spec (MethodSpec), ranges fitted to that data set
//	GET    /api/datasets                    the built-in data sets
//	GET    /api/scenarios[?on=data|target]  the scenarios with their claims (sim/scenario's Scenario, and url)
//	POST   /api/data                        upload a CSV (text/csv) → Upload
//	POST   /api/runs                        CreateRun → 201 RunCreated
//	GET    /api/runs                        the session's own runs, []RunBrief
//	GET    /api/runs/{id}                   RunInfo
//	DELETE /api/runs/{id}                   stop and free the run
//	POST   /api/runs/{id}/ops               one Op over HTTP: 204 applied, 202 Queued, 4xx refused
//	POST   /api/pace                        {"runs":[ids],"unit":"grads"|"cpu"|"off"}: pace the session's runs by one budget clock
//	GET    /api/runs/{id}/draws.csv         a sampler's kept draws, Stan's draws-table columns
//	GET    /api/runs/{id}/stream            the websocket above
//	POST   /api/sweeps                      CreateSweep → SweepCreated
//	GET    /api/sweeps/{id}, DELETE         a sweep's state; cancel it
//	GET    /api/sweeps/{id}/stream          a sweep's points as server-sent events
//
// CreateRun's replay, {"step", "changes":[{step, name, value}]}, trains
// the new run to a shared link's state: from the seed and controls, each
// change applied at the step it was made, then paused.
package wire
