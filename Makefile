# Posterior Playground. The two commands a newcomer needs: `make run` and `make test`.
GO      ?= go
BIN     := playground
PKGS    := ./...
NPM     := npm --prefix static --no-audit --no-fund

.PHONY: run build test check load race bench bench-compare generate assets lint fuzz clean

## run: fetch front-end packages, generate, build and serve on :8080
run: build
	./$(BIN) serve --addr :8080

build: assets generate
	$(GO) build -o $(BIN) .

## assets: install the npm packages and copy their browser files into static/vendor
assets: static/vendor/.stamp

static/vendor/.stamp: static/package.json static/package-lock.json
	$(NPM) ci
	$(NPM) run vendor
	touch $@

## generate: templ components to Go, and fastblas's kernels to Go assembly with avo
## (the generated files are committed)
generate:
	$(GO) tool templ generate
	$(GO) generate ./numeric/fastblas

## test: vet, the Go tests in -short mode, and node for the plot helpers. -short cuts the long
## statistical sweeps to a reduced version where one is cheap (the scenario claims on seed 1 at the
## claim step) and skips the rest and the real-time end-to-end tests (make check runs them), so each
## test stays under a minute of CPU; the frame-rate and throughput checks live in make load, so a
## busy machine cannot fail it.
test: assets
	$(GO) vet $(PKGS)
	$(GO) test -short -count=1 -timeout 15m $(PKGS)
	$(NPM) test

## check: every test without -short: the long statistical sweeps in full (the scenario claims on
## seeds 1–5 at nine steps up to five times the claim step, fBNN's band against the exact GP on ten
## cases, the samplers on the BNN, fastblas's large shapes) and the end-to-end tests that drive
## chromium, haproxy or the built binary in real time. The whole module rather than a list of the
## long tests, so a new test that cuts itself under -short is never left out; the short tests it
## runs again cost a few CPU-minutes.
check: assets
	$(GO) test -count=1 -timeout 40m $(PKGS)

## load: the load tests and the checks on frame rate and throughput (web's TestLoad and the
## classroom; a stalled viewer's effect on steps/s). Measured windows: LOAD (TestLoad's watched
## window) and CLASSROOM (the classroom's; the lecture alternates unwatched and watched windows,
## U W U W U, each half of it and longer on a busy machine, until the server has had 8 CPU-seconds).
## The lecture bounds what 300 students cost each run's own goroutines (steps per CPU-second,
## from a CPU profile split by run) and what serving them costs per frame, so another process
## on the machine does not fail it; the frame rates are scaled by the cores the server received.
LOAD      ?= 30s
CLASSROOM ?= 10s
load: assets
	PLAYGROUND_LOAD=$(LOAD) PLAYGROUND_CLASSROOM=$(CLASSROOM) $(GO) test -count=1 -timeout 15m \
		-run '^(TestLoad|TestLecture|TestLab|TestStreamStalledReaderNeitherSlowsNorGrows)$$' -v ./web ./handlers

## race: the race detector, in -short mode, over every package whose tests can race: those whose
## test binary may run the module's code on two goroutines at once (.ci/race-packages lists them
## from the source: a go statement, a parallel test, an HTTP server… in the package, its tests or
## the module packages it imports). The rest run one goroutine at a time, so the detector cannot
## find anything there; it only made them five to ten times slower (the pure numerics).
race:
	@pkgs=$$(.ci/race-packages) && test -n "$$pkgs" && echo "race: $$(echo $$pkgs | wc -w) of $$($(GO) list ./... | wc -l) packages" && \
		$(GO) test -count=1 -race -short $$pkgs

## bench-compare: the key benchmarks at BASE (default: the merge-base with origin/main) against
## HEAD, interleaved; fails when one is more than 25% slower beyond its noise (.ci/bench-compare)
bench-compare:
	BASE=$(BASE) .ci/bench-compare

## bench: one optimiser step per method, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./numeric/... ./sim/...

## fuzz: every fuzz target in the module (today: the CSV loader, stream messages, play-page links,
## run bodies, data edits, the Stan-notation parser, Dgemm), found in the test files so that a new
## one is never left out, each for a fixed number of inputs (2–20 s each here). A count, not a
## duration: Go 1.26's fuzz coordinator can fail a target with "context deadline exceeded" as a
## -fuzztime duration ends (go.dev/issue/75804, fixed in Go 1.27), which it did in CI with no
## failing input.
FUZZ_PKGS ?= $(sort $(dir $(shell git ls-files '*_test.go' | xargs grep -l '^func Fuzz')))
FUZZ_EXECS ?= 30000
fuzz:
	@for p in $(FUZZ_PKGS); do for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$p*_test.go | cut -c6-); do \
		echo "fuzz ./$$p $$t"; \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_EXECS)x -fuzzminimizetime 2s ./$$p || exit 1; done; done

## lint: formatting, vet, staticcheck (a tool dependency in go.mod), and generated files up to date
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)
	$(GO) tool templ generate
	@git diff --exit-code -- '*_templ.go' || (echo 'templ generate changed generated files: commit them'; exit 1)
	$(GO) generate ./numeric/fastblas
	@git diff --exit-code -- numeric/fastblas/kernel_amd64.s numeric/fastblas/kernel_amd64.go numeric/fastblas/peak_amd64.s numeric/fastblas/peak_amd64.go numeric/internal/kernels/kernel_amd64.s numeric/internal/kernels/kernel_amd64.go || (echo 'go generate ./numeric/fastblas changed the kernels: commit them'; exit 1)

clean:
	rm -rf $(BIN) static/node_modules static/vendor/.stamp static/vendor/*.js static/vendor/*.css
