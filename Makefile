# Posterior Playground. The two commands a newcomer needs: `make run` and `make test`.
GO      ?= go
BIN     := playground
PKGS    := ./...
NPM     := npm --prefix static --no-audit --no-fund

.PHONY: run build test race bench generate assets lint fuzz clean

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

## test: every test: Go (browser end-to-end included; needs /usr/bin/chromium), and node for the plot helpers
test: assets
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout 25m $(PKGS)
	$(NPM) test

## race: the whole module under the race detector (-short skips the browser and load tests,
## which run without it in `make test`)
race:
	$(GO) test -count=1 -race -short ./...

## bench: one optimiser step per method, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./numeric/... ./sim/...

## fuzz: each fuzz target (CSV loader, stream messages, play-page links, run bodies, Dgemm) for a
## fixed number of inputs (2–20 s each here). A count, not a duration: Go 1.26's fuzz coordinator can
## fail a target with "context deadline exceeded" as a -fuzztime duration ends (go.dev/issue/75804,
## fixed in Go 1.27), which it did in CI with no failing input.
FUZZ_PKGS := ./sim/datasets/ ./handlers/ ./numeric/fastblas/
FUZZ_EXECS ?= 30000
fuzz:
	@for p in $(FUZZ_PKGS); do for t in $$($(GO) test -list '^Fuzz' $$p | grep ^Fuzz); do \
		echo "fuzz $$p $$t"; \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_EXECS)x -fuzzminimizetime 2s $$p || exit 1; done; done

## lint: formatting, vet, staticcheck (a tool dependency in go.mod), and generated files up to date
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)
	$(GO) tool templ generate
	@git diff --exit-code -- '*_templ.go' || (echo 'templ generate changed generated files: commit them'; exit 1)
	$(GO) generate ./numeric/fastblas
	@git diff --exit-code -- numeric/fastblas/kernel_amd64.s numeric/fastblas/kernel_amd64.go || (echo 'go generate ./numeric/fastblas changed the kernels: commit them'; exit 1)

clean:
	rm -rf $(BIN) static/node_modules static/vendor/.stamp static/vendor/*.js static/vendor/*.css
