// Package web serves Posterior Playground: it assembles the HTTP server
// from its configuration (Config, whose zero value is the default), the
// chi router and middleware, the embedded static files and the pages and
// API of package handlers, and shuts it all down gracefully.
//
// Every claim below has a test, named with it. make test runs them in
// -short mode; make check runs the end-to-end ones that drive a browser,
// HAProxy or the built binary in real time, and make load the load and
// classroom tests with their thresholds (see Load).
//
// # Limits
//
// Every limit is answered with an error naming the field and what is
// allowed, and changes nothing (TestLimitsAnsweredWithFieldErrors,
// TestLimitsEveryControlRange):
//
//	runs                     8 per browser session, 64 in all: 429 naming runs, saying what to do
//	training points          400 for gp-exact, 300 for gpvi (a step is O(N³)), 10,000 for every other method
//	commands waiting         16 per run during a long step: 202 queued; beyond, 503 naming op, not applied
//	steps per run            10,000,000: status done; continue grants as many again
//	steps per step command   10,000
//	speed cap                1,000,000 steps/s
//	controls                 each its spec's range (GET /api/methods): 400 naming the control
//	data file                1 MiB and 10,000 rows: 400 naming data-file and the row
//	uploads kept             4 per session (its least recently used evicted), 32 in all, an hour unused
//	JSON body                64 KiB: 400 naming body
//	stream message           4 KiB: the socket closes with 1009
//	panels per page          4
//	sweeps from the browser  2 at once, 1 per client; 20,000 steps, 50 runs, 2,000 IWBO samples
//	unwatched runs           paused after 30 s, deleted after a minute (serve --free-unwatched)
//	per client address       sessions 120 at once then 1 a second, runs 60, uploads 28, sweeps 1,
//	                         draws downloads 4 (8 in all), streams 480: 429 saying what holds them
//	memory per run           1 GB by its estimate: 422 naming what to lower (serve --run-memory)
//	memory of all runs       8 GB by their estimates: 429 with Retry-After (serve --total-memory)
//	arithmetic of a step     10¹² floating-point operations: 422 (serve --step-flops)
//	between two stop checks  10⁹ floating-point operations, ~0.1 s of a core: 422 (serve --poll-flops)
//
// The caps per client address (the TCP peer, or with --trust-proxy the
// proxy's X-Forwarded-For; IPv6 by its /64) hold over all of that
// address's sessions, since a client without a cookie starts a new one:
// package handlers gives their arithmetic (a class of 60 behind one NAT)
// and ClientLimits sets them. A draws download is counted first and sent
// with its Content-Length under a deadline that grows with the bytes
// sent.
//
// Every run is admitted by cost before it is built, and every control set
// and data edit before the run takes it, so a live edit cannot go round
// it: package cost estimates from the method, its controls and the data's
// size the memory the run will hold, the arithmetic of one step and that
// between two checks for a stop, and the refusal names the run, what it
// needs against what the server allows and what to lower ("nuts with
// chains 8 and arch 256,256,256,256 on 100 points needs ~2.28 GB; the
// server allows 1 GB per run: lower chains, arch or data points")
// (TestAdmissionByCost, sim/engine TestBudgetHoldsLiveChanges). The serve
// flags --client-* and --export* set the caps per client address and the
// draws downloads; a flag left out or 0 keeps its default.
//
// Each method's spec states the most training points it accepts (max_points
// in GET /api/methods, with the reason), checked before any matrix is
// built (TestEveryMethodBoundsItsData, TestGPCreateBoundedByPoints,
// TestCreateRefusesTooManyPointsBeforeInit).
//
// # Input
//
// Every API field and stream message is checked against the run's spec. A
// control's value is a number or, for a choice, a string; null, "", true,
// arrays and objects are refused naming the control, in words, never a Go
// type (TestStrictInput). A key given twice in one object, also differing
// only in case, is refused naming it. CSV cells take decimal and exponent
// notation only; hexadecimal, underscores, Inf and NaN are refused naming
// the row and column (sim/datasets TestCSVNumberNotation). make fuzz runs
// the CSV loader, stream messages, play links, run bodies and data edits
// as fuzz targets.
//
// # Cross-site requests and headers
//
// Every POST, PUT, PATCH and DELETE under /api must declare its body as
// application/json (an upload: text/csv), or get 415 naming content-type;
// a write whose Origin names another site gets 403 naming origin, and so
// does a stream opened from one. The page's own origin is allowed, and
// serve --allow-origin adds more (TestCrossSiteWritesRefused). Every
// response carries a Content-Security-Policy without 'unsafe-inline'
// (default-src 'self'; no page has an inline script, style or event
// attribute: TestPagesNeedNoInlineCode), X-Content-Type-Options: nosniff,
// Referrer-Policy: same-origin, and frame-ancestors of the page's own
// origin and each serve --allow-frame-ancestor (with none, also
// X-Frame-Options: SAMEORIGIN) (TestSecurityHeadersOnEveryResponse).
//
// # Sessions
//
// Each browser is a session, a random id in an HttpOnly, SameSite=Lax
// cookie: the runs, uploads and sweeps it makes are its own, and only it may
// command or delete them. Others may watch a run read-only (a play link's
// METHOD.watch=ID); their commands are refused with 403 naming session.
//
// # Streams
//
// A run's viewers share one encoding of each frame: a run's hub encodes a
// frame once per tick and writes it to every viewer as one prepared
// websocket message. A run watched by more than 24 viewers sends each at
// most 12 frames a second (TestStreamPacesCrowdedRuns); a viewer that
// joins late or misses ticks gets a catch-up frame ending at the latest
// one, with the run's exact history (TestStreamLaggingViewerCatchesUp).
// Viewers that never read leave the run's steps/s within a factor of two
// and the heap within 4 MiB (TestStreamStalledReaderNeitherSlowsNorGrows).
// The server pings every 5 s and drops a viewer whose last pong is 10 s
// old, or whose one write waits 10 s (TestStreamDropsSilentViewer,
// TestStreamDropsStalledViewerWithinPongWait,
// TestStreamDropsViewerThatCannotKeepUp).
//
// # Runs and commands
//
// POST /api/runs answers as soon as the request is checked; the run's
// first frame says preparing while its goroutine initialises the method
// (TestCreateReturnsWhilePreparingEndToEnd). A command waits up to 1 s for
// the run's answer: 204 applied, 4xx refused and never applied, or 202
// queued when the run is inside a longer step, then applied or refused
// exactly once; no command is a 500 (TestCommandDuringLongStepEndToEnd).
// A NaN objective marks the run diverged and a panic inside a method is
// recovered, logged and reported; the server keeps serving
// (TestStreamDivergedEndToEnd, TestStreamPanicRecoveredEndToEnd).
//
// # Shutdown and probes
//
// SIGTERM stops every run and closes every stream with code 1001 ("server
// shutting down"); a viewer that stopped reading is given at most 2 s for
// its close, so the process exits within seconds
// (TestBinarySIGTERMClosesStreams, TestShutdownWithStalledViewer). /healthz answers 200 while the process
// lives; /readyz answers 503 from the moment shutdown begins, and with
// serve --drain-delay it fails that long while the server still serves, so
// a balancer sends new clients elsewhere first (TestReadyzFailsFirstOnShutdown).
// Every GET route answers HEAD.
//
// # Reliability
//
// A run's memory estimate is checked against the live heap the method
// holds after its steps, per method at sizes where each term of its
// formula dominates (sim/cost TestEstimateAgainstMeasuredHeap; estimate ÷
// measured within [0.75, 2]):
//
//	method       points  controls                                   estimate  measured
//	nuts          3,000  arch 100,100,100, 2 chains, max_depth 1      101 MB     78 MB
//	nuts             50  arch 256,256, 2 chains, full-θ draws kept    209 MB    212 MB
//	hmc           6,000  arch 100,100, 2 chains                        61 MB     53 MB
//	metropolis       20  arch 20, 2 chains, 100,000 draws kept         15 MB     16 MB
//	sgld          4,000  arch 100,100, 2 chains, batch 64              47 MB     35 MB
//	mfvi          8,000  arch 200,200                                  54 MB     56 MB
//	map           6,000  arch 128,128                                  26 MB     26 MB
//	ensemble      3,000  arch 128,128, 8 members                       17 MB     17 MB
//	livi          3,000  arch 100,100, noise_dim 50                    51 MB     52 MB
//	gip           3,000  arch 100,100, 4 samples, 400 inducing        124 MB    116 MB
//	fbnn            500  arch 100,100, 80 particles, 120 points        72 MB     75 MB
//	gp-exact        400                                               7.7 MB    6.5 MB
//	gpvi            300                                                17 MB     16 MB
//
// Where the estimate is highest above the measure it counts stores of
// draws at their cap that a short run has not filled. A deleted run gives
// its memory back: NUTS with arch 100,100 and 4 chains on a 10,000-row
// upload holds 200 MB (estimated 202 MB); deleted mid-step, the heap is
// back within 1.1 MB of where it was before the run within 0.2 s,
// and the budget counts nothing (TestHeapReturnsAfterDelete, which allows
// 8 MiB). The registry then gives the freed pages back to the system
// (for a run estimated at 64 MB or more), where Go's scavenger alone
// returned none of them within a minute: the heap's pages held from the
// system are back within 2 MB of the baseline in about 0.3 s (the test
// allows an eighth of the run). On the binary, four cycles of creating,
// playing for 3 s and deleting NUTS with arch 256,256,256,256 and 2
// chains on gap left the process at 18.6 MiB resident from 14.9 at the
// start (740 MiB before the pages were given back); its CPU was idle
// 0.15–0.30 s after each delete, and SIGTERM during such a step exited 0
// within 0.25 s. A sampler on a network evaluates more than 512 points in
// blocks and checks for a stop between two, so a delete stops its step
// within one block's arithmetic (sim/mcmc TestRowBlocksPollTheInterrupt);
// a method that does not check inside its step is held by --poll-flops
// to about 0.1 s of a core a step.
//
// # Observability
//
// GET /metrics serves Prometheus metrics from the server's own registry
// (TestMetrics): playground_runs{status,method} and playground_viewers,
// read from the run registry at scrape time; playground_steps_total{method};
// playground_stream_frames_sent_total and
// playground_stream_frame_bytes_sent_total;
// playground_commands_total{outcome}; playground_http_request_duration_seconds
// {method,route,code} (websocket and event streams left out); and the Go
// runtime's and the process's collectors. It is on the public port: put it
// behind the proxy if the run counts are nobody's business. Run goroutines
// carry the profiler labels run and method.
//
// # Load
//
// TestLoad runs 20 mfvi runs, each watched by 5 websocket viewers, on
// loopback: every viewer must average at least 10 frames a second (scaled
// by the cores the process got), the runs must keep at least 0.3 of their
// unwatched steps/s, the heap in use must stay under 128 MiB, and no
// goroutine may be left once the viewers leave. PLAYGROUND_LOAD=30s runs it
// for 30 s. TestLecture (one lecturer's three runs watched by 300
// students, each its own session) and TestLab (30 sessions of two runs,
// a viewer each) run the students in a child process; in full
// (PLAYGROUND_CLASSROOM=30s) every student must average 10 frames a
// second; a lecture's run is measured by its steps per CPU-second of its
// own goroutines (read from a CPU profile by the run's pprof label, so
// what the machine's other load takes is not counted against it), watched
// against unwatched: reported against a 90% target and failing below 60%,
// because on a 2-core machine that ratio drifts between unwatched windows
// by up to 1.4× (idle, watched runs measured 0.88–1.10); sending costs at
// most 100 µs of the server's CPU per frame a student receives (measured
// 26–29 µs); a lab's runs none fall below a quarter of the
// median; the heap in use must stay
// under 384 MiB, and no goroutine may be left. make load runs them in full
// (its LOAD and CLASSROOM set the windows) on an otherwise idle machine.
//
// Several instances behind a balancer, the container image and Kubernetes
// are in web/deploy (its README).
package web
