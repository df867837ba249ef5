#!/usr/bin/env bash
# The local stack: installs what is missing, reuses PostgreSQL, Redis and NATS when they answer
# on their standard ports (starting private ones when they do not), starts MinIO, the Firebase
# Auth emulator, Mailpit (SMTP with an HTTP API), a fake Gemini and fake product databases, and
# runs the six services.
#
#   stack.sh install         install tools into ~/.cache/santa (idempotent)
#   stack.sh prepare         install, build the web app and the services, side by side (up's first part)
#   stack.sh up              everything in the foreground with prefixed logs (make dev); Ctrl-C stops it
#   stack.sh start           everything in the background, waits until ready (tests, benchmarks)
#   stack.sh stop            stops what `start` started
#   stack.sh deps            only the dependencies, in the background (Go tests)
#   stack.sh env SERVICE     prints the environment the service runs with (secrets included)
#   stack.sh nats-url USER   the URL of a user of the stack's NATS (tests: observer, media)
#   stack.sh stop-service S… / start-service S…   one service of a started stack down and up again
#   stack.sh baseline COMMIT / baseline-stop   that commit's gateway and wishlist beside the
#                            started stack, on 127.0.0.2 (make bench's before and after, BENCH_BASELINE)
#   stack.sh url             the stack's gateway address
#   stack.sh ports           every profile's listeners, from the port plan (deploy/local/ports.env)
#
# STACK=test (the default for start/deps under `make test`) uses its own ports (ports.env), the
# database santa_test and the events namespace "test", so tests can run beside a `make dev`
# (database santa, namespace "dev"); STACK=smoke is the dev profile on ports, a database and a
# namespace of its own, for the smoke test that runs `up` as `make dev` does (smoke.sh).
#
# This script only starts and stops processes (with stack-install.sh, stack-deps.sh and
# stack-baseline.sh, which it sources). What is decided rather than run is Go, in deploy/local/stackplan (built into the
# stack's bin on first use): the port plan, the renderer's inputs, the files the stack's NATS
# and Auth emulator read, readiness and why a service exited.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS=${SANTA_TOOLS:-$HOME/.cache/santa}
STACK=${STACK:-dev}
STATE=$ROOT/.dev/$STACK
BIN=$STATE/bin # per stack: stopping the test stack must never touch a running `make dev`
mkdir -p "$STATE" "$BIN" "$TOOLS/bin"
export PATH=$TOOLS/bin:$PATH

. "$ROOT/deploy/local/pins.env" # MINIO_PIN, NATS_PIN, FIREBASE_TOOLS_PIN, MAILPIT_PIN
SERVICES=(gateway wishlist vision media notification family)
# Opt-outs the libraries document, to keep unused code out of the binaries (and of memory:
# package initialisers run for everything linked): Cloud Storage's gRPC DirectPath (xDS, RLS),
# which the Firebase SDK pulls in, and gin's MessagePack binding.
GO_BUILD_TAGS="disable_grpc_modules nomsgpack"

log() { printf '\033[1;32m[stack]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[stack]\033[0m %s\n' "$*" >&2; exit 1; }
answers() { (exec 3<>"/dev/tcp/${1%:*}/${1#*:}") 2>/dev/null; }
apt_install() {
  [ "$(id -u)" = 0 ] || die "need root to apt-get install $*"
  [ -f "$STATE/../apt-updated" ] || { apt-get update -qq >/dev/null && touch "$STATE/../apt-updated"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
# go_build_static: the services and the fakes with the flags MinIO's and Mailpit's installs use,
# so the standard library and the modules they share compile once on a fresh machine (cgo, or
# -trimpath on one side only, would compile a second copy of each).
go_build_static() { CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" "$@"; }

# The stack's plan (deploy/local/stackplan), built as the renderer is, again when its source
# is newer than the build.
PLAN=$BIN/stackplan
if [ ! -x "$PLAN" ] || [ -n "$(find "$ROOT/deploy/local/stackplan" -newer "$PLAN" -print -quit)" ]; then
  command -v go >/dev/null || die "Go is required (https://go.dev/dl)"
  (cd "$ROOT" && go_build_static -o "$PLAN.$$" ./deploy/local/stackplan) && mv "$PLAN.$$" "$PLAN"
fi
plan() { "$PLAN" -root "$ROOT" -stack "$STACK" "$@"; }
# The port plan (deploy/local/ports.env, the only place a port number is written; tests/stackplan
# checks it) for this profile: the shared ports, PORT_BASE and ADMIN_BASE (the services' first
# ports), DB_NAME, NATS_STACK_ADDR and the dependencies' addresses.
PLANNED=$(plan vars) || exit $?
eval "$PLANNED"
PG_URL_ADMIN=${PG_URL_ADMIN:-postgres://postgres@127.0.0.1:$POSTGRES_PORT/postgres?sslmode=disable}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:$REDIS_PORT/0}
NATS_URL=${NATS_URL:-nats://127.0.0.1:$NATS_PORT}
wait_port() { plan wait-port "$@" || exit 1; } # addr, name, seconds

# started NAME: this run started the shared dependency NAME ($ROOT/.dev/NAME.pid), so `up`
# stops it when it ends; what another stack or an earlier run started is left alone.
started() { echo "$ROOT/.dev/$1.pid" >> "$STATE/started"; }
# spawn NAME CMD...: a dependency in the background, in a session of its own (its pid is its
# process group), so that stopping it also stops whatever it started (firebase's node
# children) and a terminal's Ctrl-C reaches it only through `up`'s orderly stop.
spawn() {
  local name=$1; shift
  setsid nohup "$@" > "$ROOT/.dev/$name.log" 2>&1 &
  echo $! > "$ROOT/.dev/$name.pid"
  started "$name"
}
# kill_group PIDFILE: SIGTERM to the process group, up to 10 s to end, then SIGKILL.
kill_group() {
  local pid n
  pid=$(cat "$1" 2>/dev/null) || return 0
  rm -f "$1"
  [ -n "$pid" ] || return 0
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
  for ((n = 0; n < 100; n++)); do kill -0 -- "-$pid" 2>/dev/null || kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
}

# --- services ------------------------------------------------------------------------------
# Each service runs with its own environment, not one for all: which service gets which setting
# is defined once, in the chart's values (services.<name>.uses, calls and env), and
# deploy/local/serviceenv renders it by the chart's own rules, with this stack's addresses and
# secrets (`stackplan inputs`) in place of the cluster's and deploy/local/env.yaml's local
# settings on top. So a service gets the same variables here as in a pod (deploy/chartcheck
# compares them), and none gets another's secrets. The caller's own environment still reaches
# every service, as before (bench.sh's limits, PPROF_BASE, a real GEMINI_API_KEY).
RENDERER=$BIN/serviceenv
VALUES=$ROOT/charts/santa-wishlist/values.yaml

# shellcheck source=SCRIPTDIR/stack-install.sh
. "$ROOT/deploy/local/stack-install.sh" # installs, builds, the stack's secrets
# shellcheck source=SCRIPTDIR/stack-deps.sh
. "$ROOT/deploy/local/stack-deps.sh"    # the dependencies
# shellcheck source=SCRIPTDIR/stack-baseline.sh
. "$ROOT/deploy/local/stack-baseline.sh" # another commit's gateway and wishlist beside the stack

# service_env NAME: the service's environment, KEY=value lines (secrets included).
service_env() {
  [ -x "$RENDERER" ] || (cd "$ROOT" && go_build_static -o "$RENDERER" ./deploy/local/serviceenv)
  plan inputs "$RENDERER" -values "$VALUES" -local "$ROOT/deploy/local/env.yaml" "$1"
}

run_service() { # name -> runs in background with prefixed log lines
  local name=$1 env
  [ -x "$BIN/$name" ] || return 0
  # Rendered here, not in the background: a setting the service lacks stops the stack at once,
  # saying which.
  env=$(service_env "$name") || die "$name: its environment could not be rendered (above)"
  (
    # One variable a line, exported as it is (no shell evaluation of the values).
    while IFS= read -r line; do export "${line?}"; done <<< "$env"
    # PPROF_BASE=6060 gives each service a profiler on PPROF_BASE + (port - PORT_BASE).
    [ -z "${PPROF_BASE:-}" ] || export PPROF_ADDR=127.0.0.1:$((PPROF_BASE + PORT - PORT_BASE))
    exec "$BIN/$name"
  ) > >(if [ "${FOREGROUND:-}" = 1 ]; then sed -u "s/^/[$name] /" | tee -a "$STATE/$name.log"; else sed -u "s/^/[$name] /" >> "$STATE/$name.log"; fi) 2>&1 &
  echo $! > "$STATE/$name.pid"
}

# exited NAME: when the service's process has ended, says so with why in one line (from its
# log: `stackplan exited`) and is true. Its status is this shell's to know: it started it.
exited() {
  local pid status
  pid=$(cat "$STATE/$1.pid" 2>/dev/null) || return 1
  kill -0 "$pid" 2>/dev/null && return 1
  status=0; wait "$pid" 2>/dev/null || status=$?
  [ "$status" != 127 ] || status="unknown: not started by this shell"
  EXITED_STATUS=$status
  rm -f "$STATE/$1.pid"
  sleep 0.3 # the log pipe may still hold the last lines
  plan exited "$status" "$1"
}

# wait_ready NAME...: each one ready within 60 s (its admin port answers /readyz as ready, with
# the service's own name); one that exits meanwhile fails at once.
wait_ready() {
  local s status
  for s in "$@"; do
    [ -x "$BIN/$s" ] || continue
    status=0; plan wait-ready "$s" || status=$?
    if [ "$status" = 3 ]; then exited "$s" || true; die "$s did not start"; fi
    [ "$status" = 0 ] || exit 1
  done
}

start_services() {
  plan ports-free "${SERVICES[@]}" || exit 1
  local s
  for s in "${SERVICES[@]}"; do run_service "$s"; done
  wait_ready "${SERVICES[@]}"
  log "ready: http://localhost:$PORT_BASE (Auth emulator http://$EMULATOR_HOST)"
}

stop_services() { stop_named "${SERVICES[@]}"; } # by pid file: only what this stack started

# stop-service/start-service NAME...: one service of a running stack down and up again (the
# e2e account-deletion test stops notification and media while an account is deleted).
stop_named() { # SIGTERM, then up to 25 s for the graceful shutdown
  local s pid n
  for s in "$@"; do
    [ -f "$STATE/$s.pid" ] || continue
    pid=$(cat "$STATE/$s.pid")
    kill -TERM "$pid" 2>/dev/null || true
    for ((n = 0; n < 250; n++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$STATE/$s.pid"
  done
}
start_named() {
  local name
  for name in "$@"; do
    plan port "$name" public >/dev/null || exit 1
    run_service "$name"
    wait_ready "$name"
  done
}

# stop_started: the dependencies this run started (`up`), none that it found running.
stop_started() {
  local f
  [ -f "$STATE/started" ] || return 0
  while read -r f; do
    case $f in
      */private-postgres.pid) stop_private_postgres ;;
      */redis.pid) [ -f "$f" ] && { kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; } ;;
      *) kill_group "$f" ;;
    esac
  done < "$STATE/started"
  rm -f "$STATE/started"
}

stop_private_postgres() {
  [ -f "$ROOT/.dev/private-postgres" ] || return 0
  local runas=(); [ "$(id -u)" = 0 ] && runas=(runuser -u postgres --)
  "${runas[@]}" $(cat "$ROOT/.dev/private-postgres") >/dev/null 2>&1 || true
  rm -f "$ROOT/.dev/private-postgres"
}

stop_deps() { # stop --all: every dependency this checkout started, whichever run did
  local f
  for f in "$ROOT"/.dev/{minio,mailpit,auth-emulator,fakegemini,fakeproducts,nats}.pid "$STATE/nats-server.pid"; do
    kill_group "$f"
  done
  [ -f "$ROOT/.dev/redis.pid" ] && { kill "$(cat "$ROOT/.dev/redis.pid")" 2>/dev/null || true; rm -f "$ROOT/.dev/redis.pid"; }
  stop_private_postgres
  rm -f "$STATE/started"
}

# prepare: everything up installs and builds, side by side: the tools, the web app, the services.
prepare() {
  local t=$SECONDS
  WITH_WEB_BUILD=1 queue_installs
  in_background services timed "service builds" build_services
  wait_background
  log "installs and builds: $((SECONDS - t)) s"
}

# up (make dev): everything in the foreground. It watches the services: when one exits, the
# terminal says which and why in one line and everything stops, rather than serving half a
# product. Ctrl-C (or SIGTERM) stops the services and every dependency this run started.
up() {
  FOREGROUND=1 # make dev shows every service's log, prefixed; start only writes the files
  rm -f "$STATE/started"
  trap 'trap - INT TERM; log "stopping"; stop_background; stop_services; stop_started; log "stopped"' EXIT
  trap 'exit 0' INT TERM
  local t=$SECONDS d
  prepare
  d=$SECONDS
  deps
  log "dependencies: $((SECONDS - d)) s"
  start_services
  log "ready $((SECONDS - t)) s after make dev started"
  log "Ctrl-C stops everything"
  local s
  while sleep 1; do
    for s in "${SERVICES[@]}"; do
      [ -x "$BIN/$s" ] || continue
      if exited "$s"; then
        # Ctrl-C reaches the services and this shell together, and a service can be seen
        # gone before the shell runs its trap: give the trap its moment.
        sleep 0.5
        # A service ends with status 0 only when told to stop (SIGINT, SIGTERM): that was a
        # Ctrl-C this shell did not hear, as when it was started with SIGINT ignored (a
        # script's background job), or someone stopping it on purpose. A crash is non-zero.
        if [ "${EXITED_STATUS:-}" = 0 ]; then
          log "$s was stopped: stopping the stack"
          exit 0
        fi
        log "$s is down: stopping the stack (make dev again once fixed)"
        exit 1
      fi
    done
  done
}

case "${1:-}" in
  install) install_tools ;;
  deps) install_tools; deps ;;
  env) service_env "${2:?service}" ;;
  ports) plan ports ;;
  url) echo "http://127.0.0.1:$PORT_BASE" ;; # the stack's gateway, for tests
  baseline) baseline "${2:-}" ;;
  baseline-stop) baseline_stop ;;
  nats-url) plan nats-url "${2:?user}" ;;   # a stack NATS user's URL, for tests
  start) install_tools; deps; build_services; start_services ;;
  stop) baseline_stop; stop_services; [ "${2:-}" = --all ] && stop_deps; true ;;
  stop-service) shift; stop_named "$@" ;;
  start-service) shift; start_named "$@" ;;
  prepare) prepare ;;
  up) up ;;
  *) sed -n '2,29p' "$0"; exit 2 ;;
esac
