# Santa Wishlist. `make dev` runs the product locally; `make test` runs every test.
SHELL := /bin/bash
STACK := deploy/local/stack.sh
# Every Go module of the workspace, as ./dir/... patterns.
GO_PACKAGES = $(shell go list -m -f '{{.Dir}}/...' | sed "s|^$(CURDIR)|.|")

HELM ?= $(HOME)/.cache/santa/bin/helm

.PHONY: generate alerts-test cluster cluster-stop k8s-test skaffold-test dev test smoke screenshots security bench bench-gateway bench-streams bench-lookup bench-giving bench-lists bench-first-run web web-budget go-test stack-start stack-stop fmt lint help helm chart-test chart-render

help:
	@echo "make dev         the whole product at http://localhost:8080 (Ctrl-C stops it); the first run installs and builds"
	@echo "make test        every test, on real PostgreSQL, Redis, NATS, MinIO and the Auth emulator"
	@echo "make smoke       make dev's stack on ports of its own: ready, every service, a first gift, Ctrl-C, nothing left"
	@echo "make screenshots the Playwright suite over a test stack, saving docs/screenshots (test runs do not)"
	@echo "make go-test     only the Go tests (dependencies started if needed)"
	@echo "make lint        gofmt, go vet and the web's ESLint"
	@echo "make generate    from api/openapi.yaml the gateway's route table, services' servers and the web's API types; from api/internal.yaml the internal clients and servers (oapi-codegen); from pkg/events the event schemas"
	@echo "make fmt         gofmt every Go file"
	@echo "make web         the web app's build (web/dist)"
	@echo "make stack-start / stack-stop  the test stack in the background"
	@echo "make bench       load benchmarks against the running test stack (prints figures)"
	@echo "make bench-gateway  the gateway against the pgx floor, BENCH_BASELINE's (main) and this tree's in the same alternating rounds"
	@echo "make bench-lookup  barcode lookup p50/p99 from the cache and from the fake upstreams"
	@echo "make bench-giving  a giver's shared list through the gateway: before group gifts against 10 group gifts x 5 pledges, alternating rounds"
	@echo "make bench-lists  the shared view (with suggestions, with group gifts) and the recipient's list against the same reads before them, medians and ratio"
	@echo "make bench-streams  8,000 live streams: memory per stream, fan-out, reconnect drill, unpaced opening storm"
	@echo "make bench-first-run  a newcomer's first make dev: fresh clone, empty caches, each step's time to ready"
	@echo "make security    the hostile-input suite over a test stack (prints what was tried and what came back)"
	@echo "make web-budget  gzipped JavaScript on / and a Lighthouse run"
	@echo "make helm        install the pinned helm into ~/.cache/santa/bin"
	@echo "make chart-test  lint and render the chart with each values file, and its checks"
	@echo "make chart-render  the chart rendered with the production values"
	@echo "make cluster     a single-node Kubernetes on this machine, built from source (make cluster-stop ends it)"
	@echo "make k8s-test    the chart on that cluster: end-to-end suite, the web app in Chromium through its ingress (Traefik), drills"
	@echo "make alerts-test  the alert rules' promtool unit tests (no cluster needed)"
	@echo "make skaffold-test  skaffold run and one skaffold dev cycle on that cluster (profile cluster)"

# stack.sh up installs what is missing, builds the web app and the services side by side, starts
# the dependencies and the services, and stops everything (and says why) when one exits.
dev:
	STACK=dev $(STACK) up

# make dev's own stack (stack.sh up) on the smoke profile's ports, checked and stopped with
# Ctrl-C (deploy/local/smoke.sh); make test runs it too.
smoke:
	deploy/local/smoke.sh

# The Playwright suite over a test stack, saving every screen to docs/screenshots (a test run
# saves them under web/test-results, so that make test leaves the tree clean).
# All from 127.0.0.1, like make test's end-to-end suites: the per-IP limit is raised so they do
# not trip it.
screenshots: web
	STACK=test RATE_LIMIT_IP_PER_MINUTE=100000 $(STACK) start
	cd web && UPDATE_SCREENSHOTS=1 E2E_BASE_URL=$$(STACK=test ../$(STACK) url) npm run e2e; s=$$?; cd .. && STACK=test $(STACK) stop; exit $$s

web:
	@$(STACK) install
	cd web && npm run build

test:
	deploy/local/test.sh

# Only the Go tests (dependencies started if needed), for a quick loop.
go-test:
	STACK=test $(STACK) deps
	go test -count=1 $(GO_PACKAGES)

# Starts the test stack (as make test does), runs deploy/local/security.sh over it, stops it.
security:
	STACK=test RATE_LIMIT_IP_PER_MINUTE=100000 $(STACK) start
	deploy/local/security.sh; s=$$?; STACK=test $(STACK) stop; exit $$s

# The load benchmarks over a test stack, then the list answers' costs (bench-lists).
# BENCH_BASELINE=COMMIT also runs that commit's gateway and wishlist beside the stack's, and the
# alternating floor / gateway rounds take in its gateway too: before and after in one run.
bench:
	deploy/local/bench.sh
	$(MAKE) bench-lists

# Only the gateway against the pgx floor, before and after in one run: the gateway and wishlist
# of BENCH_BASELINE (main unless set) beside this tree's, in 9 alternating rounds of floor and
# both gateways, each round's ratios and their medians, and each side's CPU per request.
bench-gateway:
	BENCH_BASELINE=$${BENCH_BASELINE:-main} BENCH_ROUNDS=$${BENCH_ROUNDS:-9} BENCH_NOTIFICATIONS=0 BENCH_IMAGES=0 BENCH_FAMILY=0 deploy/local/bench.sh

# What group gifts cost a giver's shared list through the gateway (also part of make bench).
bench-giving:
	deploy/local/bench.sh giving

# Barcode lookup p50/p99 from the cache and from the fake upstreams.
bench-lookup:
	deploy/local/bench.sh lookup

# What lists for someone else, suggestions and group gifts cost the giver's shared view and the recipient's
# own list, against the same reads before them, on one database: the set runs six times, each
# pair (today, now) back to back, so a machine whose load changes slows both alike; medians and
# the ratio printed (targets: within 10%; group gifts within 15%).
bench-lists:
	STACK=test $(STACK) deps
	cd services/wishlist && go test -c -o ../../.dev/wishlist-adapters.test ./internal/adapters/
	set -o pipefail; cd services/wishlist/internal/adapters && for run in 1 2 3 4 5 6; do \
		../../../../.dev/wishlist-adapters.test -test.run '^$$' -test.bench ListAnswers -test.benchtime 1s || exit 1; done | \
		awk '{ print } /^BenchmarkListAnswers/ { split($$1, p, "/"); sub(/-[0-9]+$$/, "", p[3]); k = p[2] "/" p[3]; v[k] = v[k] " " $$3 } \
		END { for (k in v) { n = split(v[k], a, " "); asort(a); med[k] = a[int((n + 1) / 2)] } \
		  for (k in med) if (k ~ /\/now$$/) { t = k; sub(/now$$/, "today", t); \
		    printf "%-28s today %8.0f us  now %8.0f us  now/today %5.1f%%\n", substr(k, 1, length(k) - 4), med[t] / 1000, med[k] / 1000, 100 * med[k] / med[t] } }'

# A newcomer's first make dev, measured on a fresh clone with empty caches (deploy/local/first-run.sh).
bench-first-run:
	deploy/local/first-run.sh

# 8,000 live streams: memory per stream per service, fan-out, and the reconnect drill.
bench-streams:
	deploy/local/bench.sh streams reconnect storm

# Lighthouse loads the page several times from one address: the per-IP limit is raised, as for
# make test's suites, or later runs are answered 429.
web-budget: web
	STACK=test RATE_LIMIT_IP_PER_MINUTE=100000 $(STACK) start
	cd web && E2E_BASE_URL=$$(STACK=test ../$(STACK) url) npm run budget; s=$$?; cd .. && STACK=test $(STACK) stop; exit $$s

helm:
	deploy/chartcheck/install-helm.sh

# A single-node Kubernetes from pinned sources (deploy/cluster/cluster.sh; the first run builds
# it, about 40 minutes on two cores, and caches it in ~/.cache/santa/k8s).
cluster:
	deploy/cluster/cluster.sh up

cluster-stop:
	deploy/cluster/cluster.sh down

# The chart installed on that cluster, the end-to-end suite through it, then the drills.
k8s-test:
	deploy/cluster/k8s-test.sh

# skaffold run and one skaffold dev change-and-reload cycle on that cluster.
skaffold-test:
	deploy/cluster/skaffold-test.sh

# The alert rules checked and unit-tested by promtool (deploy/observability/alerts_test.yaml).
alerts-test:
	deploy/observability/test-rules.sh

# Lint and render the chart with each values file, decode strictly into Kubernetes types, check
# hardening, network policies, skaffold wiring, static Dockerfile builds and dashboard metrics.
# (deploy/chartcheck is outside go.work, so its parsers' dependencies stay out of the services'.)
chart-test: helm
	cd deploy/chartcheck && GOWORK=off HELM=$(HELM) go test -count=1 ./...

chart-render: helm
	$(HELM) template santa charts/santa-wishlist -f deploy/values/prod.yaml --kube-version 1.33.0

# What the contracts make, committed: from api/openapi.yaml the gateway's route table
# (tools/apigen writes services/gateway/internal/ports/routes.gen.go) and the web's API types
# (openapi-typescript writes web/src/lib/api/schema.ts); from pkg/events' Go types the events'
# JSON Schemas (tools/apigen writes api/events/*.schema.json). make test fails while one differs
# from what this makes (tools/apigen's TestGeneratedFilesAreUpToDate, web's
# src/test/apiTypes.test.ts).
generate:
	go run ./tools/apigen
	cd web && { [ -x node_modules/.bin/openapi-typescript ] || PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci; } && npm run gen:api

stack-start:
	STACK=test $(STACK) start

stack-stop:
	STACK=test $(STACK) stop

fmt:
	gofmt -w $$(git ls-files '*.go')

# Go: gofmt and go vet. Web: ESLint with the import boundaries (web/eslint.config.js), no warnings.
lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go vet $(GO_PACKAGES)
	cd deploy/chartcheck && GOWORK=off go vet ./...
	cd web && { [ -x node_modules/.bin/eslint ] || PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci; } && npm run lint
