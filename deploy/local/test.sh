#!/usr/bin/env bash
# make test: installs what is missing, starts the dependencies (reusing those that answer), runs
# the Go unit and integration tests, then starts the whole stack on the test ports and runs the
# end-to-end, web and chart tests against it, and last installs the chart on a local Kubernetes
# cluster built from source (deploy/cluster/k8s-test.sh) and runs skaffold against that cluster
# (deploy/cluster/skaffold-test.sh). It stops what it started.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export STACK=test
STACK_SH=deploy/local/stack.sh
RESULTS=$ROOT/.dev/test-results
mkdir -p "$RESULTS"; : > "$RESULTS/summary"
failed=0
tree_before=$(git status --porcelain 2>/dev/null)

step() { printf '\n\033[1;34m=== %s\033[0m\n' "$*"; }
record() { # name status [log]
  echo "$1 $2" >> "$RESULTS/summary"
  [ "$2" = ok ] && return
  failed=1
  [ -n "${3:-}" ] && failed_logs+=("$1:$3")
}
failed_logs=()
# why_failed prints, for each failed step, the lines of its log that say why (or its last
# lines): CI shows only the end of the output, so the reason must be there, not 5,000 lines up.
why_failed() {
  local entry name log
  for entry in "${failed_logs[@]}"; do
    name=${entry%%:*} log=$RESULTS/${entry#*:}
    echo "--- $name ($log):"
    { grep -E -- '--- FAIL|^FAIL|FAILED: |panic:|_test\.go:[0-9]+:|Error:|✘|[0-9]+ failed|^unready: ' "$log" || tail -8 "$log"; } 2>/dev/null | tail -16 | cut -c1-300
  done
}

step "install and dependencies"
# On a cold machine the local cluster's binaries (Kubernetes, skaffold, ...) take about an hour
# to build. They build in the background at the lowest priority, on what CPU the rest
# of the suite leaves idle, and make k8s-test waits for them; a warm cache returns at once.
nice -n 19 deploy/cluster/build.sh > "$RESULTS/k8s-build.log" 2>&1 &
k8s_build=$!
# Chromium (make dev does not need it) installs beside the stack's tools.
t=$SECONDS
if command -v chromium >/dev/null; then chromium=""; else
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null; } &
  chromium=$!
fi
$STACK_SH install || exit 1
if [ -n "$chromium" ]; then wait "$chromium" || exit 1; echo "Chromium installed ($((SECONDS - t)) s from the start of the installs)"; fi
deploy/chartcheck/install-helm.sh || exit 1
export HELM=$HOME/.cache/santa/bin/helm
$STACK_SH deps || exit 1
export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
export TEST_REDIS_URL=redis://127.0.0.1:6379/0
export TEST_NATS_URL=nats://127.0.0.1:4222
export TEST_MINIO_ENDPOINT=127.0.0.1:9000 TEST_MINIO_ACCESS_KEY=santa TEST_MINIO_SECRET_KEY=santa-secret-key
export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099

GO_PACKAGES=$(go list -m -f '{{.Dir}}/...' | sed "s|^$ROOT|.|" | grep -v '/tests/e2e/')

# deploy/chartcheck is a module of its own outside go.work: its Prometheus and BuildKit
# dependencies must not raise the versions the services build with.
chartcheck() { (cd deploy/chartcheck && GOWORK=off go "$@"); }
# So is the local cluster's podwatch (deploy/cluster/podwatch: standard library only).
podwatch() { (cd deploy/cluster/podwatch && GOWORK=off go "$@"); }

step "go vet"
if go vet $GO_PACKAGES && chartcheck vet ./... && podwatch vet ./...; then record go-vet ok; else record go-vet FAILED; fi

step "alert rules: promtool check and unit tests (make alerts-test)"
deploy/observability/test-rules.sh 2>&1 | tee "$RESULTS/alerts.log"
if [ "${PIPESTATUS[0]}" = 0 ]; then record alerts ok; else record alerts FAILED alerts.log; fi

step "Go unit and integration tests"
go_tests() {
  go test -count=1 -p 2 -v $GO_PACKAGES; local s=$?
  chartcheck test -count=1 -v ./... || s=1
  podwatch test -count=1 -v ./... || s=1
  return $s
}
# -v feeds the pass/fail count below; the console shows package results and failures only.
go_tests 2>&1 | tee "$RESULTS/go.log" | grep -E '^(ok|FAIL|panic:|---)|^\s+--- FAIL|_test\.go:[0-9]+:'

if [ "${PIPESTATUS[0]}" = 0 ]; then record go-test ok; else record go-test FAILED go.log; fi

if [ -f web/package.json ]; then
  step "web lint (ESLint: typescript-eslint, React hooks, import boundaries)"
  # node_modules from before ESLint was added lacks it: install what the lock file names.
  (cd web && { [ -x node_modules/.bin/eslint ] || PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci; } && npm run lint 2>&1) | tee "$RESULTS/eslint.log"
  if [ "${PIPESTATUS[0]}" = 0 ]; then record web-lint ok; else record web-lint FAILED eslint.log; fi
  step "web unit tests (Vitest)"
  (cd web && npm test 2>&1) | tee "$RESULTS/vitest.log"
  if [ "${PIPESTATUS[0]}" = 0 ]; then record web-unit ok; else record web-unit FAILED vitest.log; fi
  step "web build"
  if (cd web && npm run build >"$RESULTS/web-build.log" 2>&1); then record web-build ok; else record web-build FAILED web-build.log; tail -30 "$RESULTS/web-build.log"; fi
fi

step "whole stack on the test ports"
trap '$STACK_SH stop' EXIT
# The end-to-end suites all come from 127.0.0.1: the per-IP limit is raised so they do not
# trip it; the per-user limit keeps its default and is tested.
export RATE_LIMIT_IP_PER_MINUTE=100000
if $STACK_SH start; then
  record stack-start ok
  export SANTA_E2E_URL=$($STACK_SH url)
  export EVENTS_NAMESPACE=test # the stack's events namespace (stack.sh), for tests that read the stream
  # The services' NATS is the stack's own, with a user each; tests read the stream as "observer".
  export TEST_NATS_URL=$($STACK_SH nats-url observer)
  export SANTA_METRICS_URLS=$($STACK_SH ports | awk '$1 == "test" && $2 ~ /-admin$/ {printf "%shttp://127.0.0.1:%s", sep, $3; sep = ","}')
  if [ -d tests/e2e ]; then
    step "end-to-end API tests"
    go test -count=1 -v -tags e2e ./tests/e2e/... 2>&1 | tee "$RESULTS/e2e.log" | grep -E '^(ok|FAIL|panic:|---)|^\s+--- FAIL|_test\.go:[0-9]+:'

    if [ "${PIPESTATUS[0]}" = 0 ]; then record go-e2e ok; else record go-e2e FAILED e2e.log; fi
  fi
  step "security: hostile inputs over the running stack (make security)"
  deploy/local/security.sh 2>&1 | tee "$RESULTS/security.log"
  if [ "${PIPESTATUS[0]}" = 0 ]; then record security ok; else record security FAILED security.log; fi
  if [ -d deploy/chartcheck ]; then
    step "dashboard metrics exported by the running services"
    chartcheck test -count=1 -tags integration -run TestMetricsExportedByRunningServices ./... 2>&1 | tee "$RESULTS/metrics.log"
    if [ "${PIPESTATUS[0]}" = 0 ]; then record metrics ok; else record metrics FAILED metrics.log; fi
  fi
  if [ -f web/package.json ]; then
    step "the first screen's JavaScript budget (160 KB gzipped; make web-budget also runs Lighthouse)"
    (cd web && BUDGET_URL=$SANTA_E2E_URL LIGHTHOUSE_RUNS=0 npm run budget 2>&1) | tee "$RESULTS/budget.log"
    if [ "${PIPESTATUS[0]}" = 0 ]; then record web-budget ok; else record web-budget FAILED budget.log; fi
    step "web end-to-end (Playwright, Chromium)"
    (cd web && E2E_BASE_URL=$SANTA_E2E_URL npm run e2e 2>&1) | tee "$RESULTS/playwright.log"
    if [ "${PIPESTATUS[0]}" = 0 ]; then record web-e2e ok; else record web-e2e FAILED playwright.log; fi
  fi
else
  record stack-start FAILED
fi

# The chart on a real Kubernetes (deploy/cluster): built from source once and cached, started
# for this run and stopped after it. The test stack goes first, to leave the machine to it.
$STACK_SH stop >/dev/null 2>&1

step "make dev's stack on the smoke profile: ready, every service through the gateway, a first gift, Ctrl-C, nothing left (make smoke)"
deploy/local/smoke.sh 2>&1 | tee "$RESULTS/smoke.log"
if [ "${PIPESTATUS[0]}" = 0 ]; then record dev-smoke ok; else record dev-smoke FAILED smoke.log; fi

step "Kubernetes: the chart on a local cluster, end-to-end suite and drills (make k8s-test)"
wait $k8s_build || { echo "the cluster's binaries did not build:"; tail -20 "$RESULTS/k8s-build.log"; }
deploy/cluster/k8s-test.sh 2>&1 | tee "$RESULTS/k8s.log"
if [ "${PIPESTATUS[0]}" = 0 ]; then record k8s-test ok; else record k8s-test FAILED k8s.log; fi
step "skaffold on that cluster: skaffold run and one skaffold dev cycle (make skaffold-test)"
deploy/cluster/skaffold-test.sh 2>&1 | tee "$RESULTS/skaffold.log"
if [ "${PIPESTATUS[0]}" = 0 ]; then record skaffold-test ok; else record skaffold-test FAILED skaffold.log; fi
deploy/cluster/cluster.sh down 2>&1 | tail -1

step "the tests left the tree as they found it (git status --porcelain)"
# (Against the tree as it was at the start, so a developer's own edits do not count.)
if [ "$(git status --porcelain 2>/dev/null)" = "$tree_before" ]; then record tree-clean ok; else
  diff <(echo "$tree_before") <(git status --porcelain); record tree-clean FAILED; fi

step "summary"
cat "$RESULTS/summary"
passed=$(grep -cE '^\s*--- PASS' "$RESULTS"/go.log "$RESULTS"/e2e.log 2>/dev/null | awk -F: '{s+=$2} END {print s+0}')
failed_tests=$(grep -cE '^\s*--- FAIL' "$RESULTS"/go.log "$RESULTS"/e2e.log 2>/dev/null | awk -F: '{s+=$2} END {print s+0}')
echo "go: $passed passed, $failed_tests failed"
[ "$failed" = 0 ] || { step "why it failed"; why_failed; }
exit $failed
