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
#   stack.sh url             the stack's gateway address
#   stack.sh ports           every profile's listeners, from the port plan (deploy/local/ports.env)
#
# STACK=test (the default for start/deps under `make test`) uses its own ports (ports.env), the
# database santa_test and the events namespace "test", so tests can run beside a `make dev`
# (database santa, namespace "dev"); STACK=smoke is the dev profile on ports, a database and a
# namespace of its own, for the smoke test that runs `up` as `make dev` does (smoke.sh).
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

# The port plan: the only place a port number is written (tests/stackplan checks it).
. "$ROOT/deploy/local/ports.env"
PROFILES=($(sed -n 's/^\([a-z]*\)_PUBLIC=.*/\1/p' "$ROOT/deploy/local/ports.env"))
planned() { local v=$1_$2; echo "${!v:?no $2 for the profile $1 in deploy/local/ports.env}"; } # profile, key
case " ${PROFILES[*]} " in *" $STACK "*) ;; *) echo "STACK is one of: ${PROFILES[*]}" >&2; exit 2 ;; esac
PORT_BASE=$(planned "$STACK" PUBLIC)
ADMIN_BASE=$(planned "$STACK" ADMIN)
case $STACK in dev) DB_NAME=santa ;; *) DB_NAME=santa_$STACK ;; esac
PG_URL_ADMIN=${PG_URL_ADMIN:-postgres://postgres@127.0.0.1:$POSTGRES_PORT/postgres?sslmode=disable}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:$REDIS_PORT/0}
NATS_URL=${NATS_URL:-nats://127.0.0.1:$NATS_PORT}
MINIO_ADDR=127.0.0.1:$MINIO_PORT
EMULATOR_HOST=127.0.0.1:$AUTH_EMULATOR_PORT
MAILPIT_SMTP=127.0.0.1:$MAILPIT_SMTP_PORT
MAILPIT_HTTP=127.0.0.1:$MAILPIT_HTTP_PORT
FAKE_GEMINI_ADDR=127.0.0.1:$FAKE_GEMINI_PORT
FAKE_PRODUCTS_ADDR=127.0.0.1:$FAKE_PRODUCTS_PORT

# ports: every listener of every profile, "profile name port", the shared ones once.
ports() {
  local v p i
  for v in $(sed -n 's/^\([A-Z_]*_PORT\)=.*/\1/p' "$ROOT/deploy/local/ports.env"); do
    echo "shared $(echo "${v%_PORT}" | tr 'A-Z_' 'a-z-') ${!v}"
  done
  for p in "${PROFILES[@]}"; do
    for i in "${!SERVICES[@]}"; do
      echo "$p ${SERVICES[$i]} $(($(planned "$p" PUBLIC) + i))"
      echo "$p ${SERVICES[$i]}-admin $(($(planned "$p" ADMIN) + i))"
    done
    echo "$p nats $(planned "$p" NATS)"
    echo "$p shop $(planned "$p" SHOP)"
  done
}

log() { printf '\033[1;32m[stack]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[stack]\033[0m %s\n' "$*" >&2; exit 1; }
answers() { (exec 3<>"/dev/tcp/${1%:*}/${1#*:}") 2>/dev/null; }
wait_port() { # addr, name, seconds
  local i
  for ((i = 0; i < ${3:-60} * 10; i++)); do answers "$1" && return 0; sleep 0.1; done
  die "$2 did not answer on $1 (see $STATE/*.log)"
}
apt_install() {
  [ "$(id -u)" = 0 ] || die "need root to apt-get install $*"
  [ -f "$STATE/../apt-updated" ] || { apt-get update -qq >/dev/null && touch "$STATE/../apt-updated"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

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

# First-run steps that need nothing of each other run side by side, each with its output in
# $STEPS/NAME.log; the terminal gets one line as each starts and ends, with its time.
STEPS=$ROOT/.dev/steps
BACKGROUND=()
exec 3>&2
in_background() { # NAME CMD...
  mkdir -p "$STEPS"
  ("${@:2}") > "$STEPS/$1.log" 2>&1 &
  BACKGROUND+=("$!:$1")
}
wait_background() {
  local j failed=""
  for j in "${BACKGROUND[@]}"; do wait "${j%%:*}" || failed+=" ${j#*:}"; done
  BACKGROUND=()
  for j in $failed; do printf '\n--- %s\n' "$STEPS/$j.log" >&2; tail -15 "$STEPS/$j.log" >&2; done
  [ -z "$failed" ] || die "failed:$failed (logs in $STEPS)"
}
stop_background() { # up stopped early: the steps still running stop too
  local j
  for j in "${BACKGROUND[@]}"; do pkill -TERM -P "${j%%:*}" 2>/dev/null; kill "${j%%:*}" 2>/dev/null; done
  BACKGROUND=()
  return 0
}
timed() { # NAME CMD...: runs CMD, then tells how long it took, and its CPU time
  local TIMEFORMAT="%0R %0U %0S" times status=0 f
  f=$(mktemp)
  log "$1: started" 2>&3
  { time "${@:2}" 2>&4; } 4>&2 2> "$f" || status=$?
  read -r -a times < "$f"; rm -f "$f"
  # CPU time (user + system) tells what a step costs on a quiet machine, whatever else ran.
  log "$1: $([ "$status" = 0 ] || echo "FAILED after ")${times[0]} s (CPU $((times[1] + times[2])) s)" 2>&3
  return "$status"
}

install_minio() {
  # Static (as the image's Dockerfile builds it), so the local cluster's image reuses it.
  (cd /tmp && CGO_ENABLED=0 GOBIN=$TOOLS/bin GOFLAGS=-buildvcs=false go install -trimpath -ldflags="-s -w" "github.com/minio/minio@$MINIO_PIN")
}
install_mailpit() {
  (cd /tmp && CGO_ENABLED=0 GOBIN=$TOOLS/bin GOFLAGS=-buildvcs=false go install -trimpath -ldflags="-s -w" "github.com/axllent/mailpit@$MAILPIT_PIN")
}
install_firebase() {
  mkdir -p "$TOOLS/firebase"
  cd "$TOOLS/firebase"
  [ -f package.json ] || echo '{"private":true}' > package.json
  # No install scripts: the only ones are protobufjs's (which firebase-tools itself disallows) and
  # re2's, which finds no prebuilt binary here and compiles RE2 from C++ for minutes; re2 is an
  # optional dependency of the Hosting emulator, which falls back to JavaScript's RegExp.
  # A tree that does not run (an install interrupted, or two installs at once) starts afresh.
  firebase_runs || rm -rf node_modules package-lock.json
  npm install --no-audit --no-fund --loglevel=error --ignore-scripts "firebase-tools@$FIREBASE_TOOLS_PIN"
  "$TOOLS/firebase/node_modules/.bin/firebase" --version
}
# firebase_runs: the installed firebase-tools starts (its binary alone can sit in a broken tree).
firebase_runs() { "$TOOLS/firebase/node_modules/.bin/firebase" --version >/dev/null 2>&1; }
install_web_deps() {
  cd "$ROOT/web" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
}

# queue_installs: the tools that are missing, each in the background (wait_background).
queue_installs() {
  command -v go >/dev/null || die "Go is required (https://go.dev/dl)"
  command -v npm >/dev/null || apt_install nodejs npm
  [ -x "$TOOLS/bin/minio" ] || in_background minio timed "MinIO $MINIO_PIN build" install_minio
  [ -x "$TOOLS/bin/mailpit" ] || in_background mailpit timed "Mailpit $MAILPIT_PIN build" install_mailpit
  firebase_runs || in_background firebase timed "firebase-tools $FIREBASE_TOOLS_PIN" install_firebase
  # The web app's build needs its dependencies: one step after the other, beside the rest.
  if [ -f "$ROOT/web/package.json" ]; then
    local web=()
    [ -d "$ROOT/web/node_modules" ] || web=(timed "web npm ci" install_web_deps)
    if [ "${WITH_WEB_BUILD:-}" = 1 ]; then
      in_background web web_steps "${web[@]}"
    elif [ ${#web[@]} -gt 0 ]; then
      in_background web "${web[@]}"
    fi
  fi
  return 0
}
web_steps() { [ $# = 0 ] || "$@"; web_build; }

install_tools() { queue_installs; wait_background; }

# web_build: the app the gateway serves (web/dist), built again only when a source is newer.
web_build() {
  cd "$ROOT/web"
  if [ -f dist/index.html ] && [ -z "$(find src public index.html package.json package-lock.json vite.config.ts tsconfig*.json -newer dist/index.html 2>/dev/null | head -1)" ]; then
    log "web build: up to date" 2>&3
    return
  fi
  timed "web build" npm run build
}

# --- dependencies --------------------------------------------------------------------------
start_postgres() {
  if answers 127.0.0.1:$POSTGRES_PORT; then return; fi
  log "PostgreSQL does not answer on $POSTGRES_PORT: starting a private one"
  local pgbin
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$pgbin" ] || { apt_install postgresql; pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1); }
  local data=$ROOT/.dev/postgres
  local runas=()
  [ "$(id -u)" = 0 ] && { id postgres >/dev/null 2>&1 || useradd -r postgres; chown -R postgres "$ROOT/.dev"; runas=(runuser -u postgres --); }
  if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data"; [ "$(id -u)" = 0 ] && chown postgres "$data"
    "${runas[@]}" "$pgbin/initdb" -D "$data" -U postgres --auth=trust >/dev/null
  fi
  "${runas[@]}" "$pgbin/pg_ctl" -D "$data" -l "$ROOT/.dev/postgres.log" -o "-k /tmp -c listen_addresses=127.0.0.1 -p $POSTGRES_PORT" -w start >/dev/null
  echo "$pgbin/pg_ctl -D $data stop" > "$ROOT/.dev/private-postgres"
  started private-postgres
}

start_redis() {
  answers 127.0.0.1:$REDIS_PORT && return
  log "Redis does not answer on $REDIS_PORT: starting a private one"
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port $REDIS_PORT --save "" --appendonly no \
    --pidfile "$ROOT/.dev/redis.pid" --logfile "$ROOT/.dev/redis.log"
  started redis
  wait_port 127.0.0.1:$REDIS_PORT Redis 10
}

# The services reach Redis as the stack's own ACL user with a password,
# never as the server's default user: on a shared Redis (this machine's, CI's) the user is
# added next to whatever else uses it; the password is made once per stack in $STATE.
redis_user() {
  command -v redis-cli >/dev/null || apt_install redis-tools
  [ -s "$STATE/redis.pass" ] || (umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$STATE/redis.pass")
  redis-cli -u "$REDIS_URL" ACL SETUSER "santa-$STACK" reset on ">$(cat "$STATE/redis.pass")" '~*' '&*' +@all -@admin -flushall -flushdb >/dev/null ||
    die "could not create the Redis user santa-$STACK (Redis 6 or later is needed for ACLs)"
}
services_redis_url() { echo "${REDIS_URL/redis:\/\//redis://santa-$STACK:$(cat "$STATE/redis.pass" 2>/dev/null)@}"; }

start_nats() {
  answers 127.0.0.1:$NATS_PORT && return
  log "NATS does not answer on $NATS_PORT: starting a private one with JetStream"
  if ! command -v nats-server >/dev/null; then
    (cd /tmp && GOBIN=$TOOLS/bin go install "github.com/nats-io/nats-server/v2@$NATS_PIN")
  fi
  spawn nats nats-server -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$ROOT/.dev/nats"
  wait_port 127.0.0.1:$NATS_PORT NATS 10
}

# The services' NATS: the stack's own server, on a port of its own, with a
# user and password per service and publish/subscribe permissions per subject, so that no
# service (and nobody without a password) can publish another's events, such as a forged
# item.deleted. The shared server (NATS_PORT) stays for the Go tests (which make their own
# streams). "observer" is for the end-to-end tests that read the stream.
NATS_STACK_ADDR=127.0.0.1:$(planned "$STACK" NATS)
stack_nats() {
  if ! command -v nats-server >/dev/null; then
    (cd /tmp && GOBIN=$TOOLS/bin go install "github.com/nats-io/nats-server/v2@$NATS_PIN")
  fi
  # A password for each user that has none yet (a checkout from before a user was added).
  (umask 077 && touch "$STATE/nats.env" && for u in wishlist media notification family gateway vision observer; do
    grep -q "^NATS_PASS_$u=" "$STATE/nats.env" ||
      echo "NATS_PASS_$u=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')" >> "$STATE/nats.env"; done)
  # shellcheck disable=SC1091
  . "$STATE/nats.env"
  local ns=$STACK js='"$JS.API.>"' ack='"$JS.ACK.>"' inbox='"_INBOX.>"' erased="\"$STACK.user.erased\""
  (umask 077 && cat > "$STATE/nats.conf" <<CONF
listen: $NATS_STACK_ADDR
jetstream { store_dir: "$STATE/nats-js" }
authorization {
  users: [
    { user: wishlist, password: "$NATS_PASS_wishlist",
      permissions: { publish: ["$ns.item.>", "$ns.santa.>", "$ns.list.>", "$ns.user.>", "$ns.reminder.shopping", "$ns.reminder.list_empty", $js, $ack], subscribe: [$inbox] } }
    { user: family, password: "$NATS_PASS_family",
      permissions: { publish: ["$ns.family.>", "$ns.secretsanta.>", "$ns.reminder.draw_soon", "$ns.reminder.exchange_soon", $erased, $js, $ack], subscribe: [$inbox] } }
    { user: media, password: "$NATS_PASS_media",
      permissions: { publish: [$js, $ack, $erased], subscribe: [$inbox] } }
    { user: notification, password: "$NATS_PASS_notification",
      permissions: { publish: [$js, $ack, $erased, "$ns.notify.user.>"], subscribe: [$inbox, "$ns.notify.user.>"] } }
    { user: gateway, password: "$NATS_PASS_gateway",
      permissions: { publish: [$js, $ack, $erased], subscribe: [$inbox] } }
    { user: vision, password: "$NATS_PASS_vision",
      permissions: { publish: [$js, $ack, $erased], subscribe: [$inbox] } }
    { user: observer, password: "$NATS_PASS_observer",
      permissions: { publish: [$js, $ack], subscribe: [$inbox] } }
  ]
}
CONF
  )
  if answers $NATS_STACK_ADDR; then
    local pid; pid=$(cat "$STATE/nats-server.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -HUP "$pid" # ours: it rereads the users and permissions written above
      return
    fi
    # Another checkout's stack NATS holds the port with other passwords: this port is the
    # stack's own, so it is stopped and started again with this checkout's users.
    log "the stack's NATS port $NATS_STACK_ADDR is held by another checkout's server: restarting it"
    pkill -f "nats-server -c .*/$STACK/nats.conf" 2>/dev/null || true
    for _ in $(seq 50); do answers $NATS_STACK_ADDR || break; sleep 0.1; done
  fi
  log "starting the stack's NATS (users per service) on $NATS_STACK_ADDR"
  setsid nohup nats-server -c "$STATE/nats.conf" > "$STATE/nats-server.log" 2>&1 &
  echo $! > "$STATE/nats-server.pid"
  echo "$STATE/nats-server.pid" >> "$STATE/started"
  wait_port $NATS_STACK_ADDR "the stack's NATS" 10
}

# nats_env USER: the URL of a user of the stack's NATS, for tests (nats-url); the services' own
# come from their environments (service_env).
nats_env() {
  local NATS_PASS_wishlist NATS_PASS_media NATS_PASS_notification NATS_PASS_family NATS_PASS_gateway NATS_PASS_vision NATS_PASS_observer
  # shellcheck disable=SC1091
  . "$STATE/nats.env"
  local pass=NATS_PASS_$1
  [ -z "${!pass:-}" ] || echo "NATS_URL=nats://$1:${!pass}@$NATS_STACK_ADDR"
}

start_minio() {
  answers $MINIO_ADDR && return
  log "starting MinIO on $MINIO_ADDR"
  MINIO_ROOT_USER=santa MINIO_ROOT_PASSWORD=santa-secret-key MINIO_BROWSER=off \
    spawn minio minio server "$ROOT/.dev/minio" --address $MINIO_ADDR --console-address "127.0.0.1:$MINIO_CONSOLE_PORT" --quiet
  wait_port $MINIO_ADDR MinIO 60
}

# Mailpit receives every email locally (invitations); its web UI and API are on MAILPIT_HTTP.
start_mailpit() {
  answers $MAILPIT_SMTP && return
  log "starting Mailpit on $MAILPIT_SMTP (SMTP) and $MAILPIT_HTTP (API)"
  spawn mailpit mailpit --smtp $MAILPIT_SMTP --listen $MAILPIT_HTTP --database "$ROOT/.dev/mailpit.db" --quiet
  wait_port $MAILPIT_SMTP Mailpit 20
}

start_emulator() {
  answers $EMULATOR_HOST && return
  log "starting the Firebase Auth emulator on $EMULATOR_HOST"
  # firebase reads firebase.json from the working directory: written from the port plan.
  mkdir -p "$ROOT/.dev/firebase"
  cat > "$ROOT/.dev/firebase/firebase.json" <<JSON
{
  "emulators": {
    "auth": { "host": "127.0.0.1", "port": $AUTH_EMULATOR_PORT },
    "hub": { "host": "127.0.0.1", "port": $AUTH_EMULATOR_HUB_PORT },
    "logging": { "host": "127.0.0.1", "port": $AUTH_EMULATOR_LOGGING_PORT },
    "ui": { "enabled": false },
    "singleProjectMode": true
  }
}
JSON
  cd "$ROOT/.dev/firebase"
  spawn auth-emulator "$TOOLS/firebase/node_modules/.bin/firebase" emulators:start --only auth --project demo-santa
  cd "$ROOT"
}
# The emulator (Node, firebase-tools) takes the longest to start: deps spawns it first and
# waits for it last, so the others start meanwhile.
wait_emulator() { wait_port $EMULATOR_HOST "Auth emulator" 90; }

start_fake_gemini() {
  [ -n "${GEMINI_API_KEY:-}" ] && return 0 # a real key: use the real Gemini
  reuse_own fakegemini $FAKE_GEMINI_ADDR && return
  [ -f "$ROOT/fakes/cmd/fakegemini/main.go" ] || return 0
  log "starting the fake Gemini on $FAKE_GEMINI_ADDR (no internet here)"
  go_build_static -o "$ROOT/.dev/fakegemini" ./fakes/cmd/fakegemini
  FAKE_GEMINI_ADDR=$FAKE_GEMINI_ADDR spawn fakegemini "$ROOT/.dev/fakegemini"
  wait_port $FAKE_GEMINI_ADDR "fake Gemini" 20
}

# reuse_own NAME ADDR: true when ADDR answers with this checkout's test double NAME (its pid
# file). One that another checkout left running there is stopped, so that this checkout's
# build is what the tests talk to (an older fake lacks what newer tests ask of it).
reuse_own() {
  answers "$2" || return 1
  local pid; pid=$(cat "$ROOT/.dev/$1.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && return 0
  log "$2 is held by another checkout's $1: replacing it with this one's"
  pkill -f "/\.dev/$1\$" 2>/dev/null || true
  for _ in $(seq 50); do answers "$2" || return 1; sleep 0.1; done
  die "$2 is still held by another program: stop it and try again"
}

# Fake Open Food Facts, Open Products Facts and UPCitemdb for the barcode lookup.
start_fake_products() {
  reuse_own fakeproducts $FAKE_PRODUCTS_ADDR && return
  [ -f "$ROOT/fakes/cmd/fakeproducts/main.go" ] || return 0
  log "starting the fake product databases on $FAKE_PRODUCTS_ADDR (no internet here)"
  go_build_static -o "$ROOT/.dev/fakeproducts" ./fakes/cmd/fakeproducts
  FAKE_PRODUCTS_ADDR=$FAKE_PRODUCTS_ADDR spawn fakeproducts "$ROOT/.dev/fakeproducts"
  wait_port $FAKE_PRODUCTS_ADDR "fake product databases" 20
}

ensure_database() {
  psql "$PG_URL_ADMIN" -qtAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1 ||
    psql "$PG_URL_ADMIN" -qc "CREATE DATABASE $DB_NAME" >/dev/null
}

deps() {
  cd "$ROOT"
  start_emulator; start_postgres; start_redis; redis_user; start_nats; stack_nats; start_minio; start_mailpit; start_fake_gemini; start_fake_products
  wait_emulator
  command -v psql >/dev/null || apt_install postgresql-client
  ensure_database
}

# --- services ------------------------------------------------------------------------------
# Each service runs with its own environment, not one for all: which service gets which setting
# is defined once, in the chart's values (services.<name>.uses, calls and env), and
# deploy/local/serviceenv renders it by the chart's own rules, with this stack's addresses and
# secrets (render_inputs) in place of the cluster's and deploy/local/env.yaml's local settings
# on top. So a service gets the same variables here as in a pod (deploy/chartcheck compares
# them), and none gets another's secrets. The caller's own environment still reaches every
# service, as before (bench.sh's limits, PPROF_BASE, a real GEMINI_API_KEY).
RENDERER=$BIN/serviceenv
VALUES=$ROOT/charts/santa-wishlist/values.yaml

# render_inputs: what this stack has, under the names the renderer reads, exported to it alone
# (service_env runs it in a subshell).
render_inputs() {
  local s
  set -a # the secrets this stack made, as the files hold them
  # shellcheck disable=SC1091
  . "$STATE/identity.env"
  # shellcheck disable=SC1091
  . "$STATE/mediaurl.env"
  # shellcheck disable=SC1091
  . "$STATE/vapid.env"
  # shellcheck disable=SC1091
  . "$STATE/nats.env"
  set +a
  for s in "${SERVICES[@]}"; do
    export "PORT_$s=$(service_port "$s" public)" "ADMIN_PORT_$s=$(service_port "$s" admin)"
  done
  DATABASE_URL=${PG_URL_ADMIN%%/postgres\?*}/$DB_NAME?sslmode=disable
  REDIS_URL=$(services_redis_url)
  NATS_ADDR=$NATS_STACK_ADDR
  EVENTS_NAMESPACE=$STACK
  FIREBASE_PROJECT_ID=demo-santa # the emulator's project (start_emulator)
  FIREBASE_AUTH_EMULATOR_HOST=$EMULATOR_HOST
  SMTP_URL=${SMTP_URL:-smtp://$MAILPIT_SMTP}
  PUBLIC_URL=http://localhost:$PORT_BASE
  # A real key (exported by the caller) uses the real Gemini; without one, the fake.
  GEMINI_BASE_URL=${GEMINI_BASE_URL:-$([ -n "${GEMINI_API_KEY:-}" ] || echo "http://$FAKE_GEMINI_ADDR")}
  GEMINI_API_KEY=${GEMINI_API_KEY:-fake-dev-key}
  MINIO_ENDPOINT=$MINIO_ADDR
  MINIO_ACCESS_KEY=santa
  MINIO_SECRET_KEY=santa-secret-key
  MINIO_BUCKET=santa-$STACK
  # What deploy/local/env.yaml refers to besides those.
  SHOP_ADDR=127.0.0.3:$(planned "$STACK" SHOP) # the e2e suite's local shop
  PUSH_ADDR=127.0.0.4:$((PORT_BASE + 8))       # the e2e suite's local push service
  WEB_DIR=$([ ! -f "$ROOT/web/dist/index.html" ] || echo "$ROOT/web/dist")
  # Each user's storage quota; the test stack's is small enough for make security to exhaust.
  MEDIA_QUOTA_IMAGES=${MEDIA_QUOTA_IMAGES:-$([ "$STACK" = test ] && echo 20 || echo 500)}
  # Reminders (wishlist, family) scan at start, then this often. The test stack's scan at start
  # only, in effect: a scan in the middle of an e2e test would remind its users of claims whose
  # reveal date is near or of empty shared lists, events the test did not make.
  REMINDER_INTERVAL=${REMINDER_INTERVAL:-$([ "$STACK" = test ] && echo 24h || echo 5m)}
  export DATABASE_URL REDIS_URL NATS_ADDR EVENTS_NAMESPACE FIREBASE_PROJECT_ID FIREBASE_AUTH_EMULATOR_HOST \
    SMTP_URL PUBLIC_URL GEMINI_BASE_URL GEMINI_API_KEY MINIO_ENDPOINT MINIO_ACCESS_KEY MINIO_SECRET_KEY \
    MINIO_BUCKET STACK FAKE_PRODUCTS_ADDR SHOP_ADDR PUSH_ADDR WEB_DIR MEDIA_QUOTA_IMAGES REMINDER_INTERVAL
}

# service_env NAME: the service's environment, KEY=value lines (secrets included).
service_env() {
  [ -x "$RENDERER" ] || (cd "$ROOT" && go_build_static -o "$RENDERER" ./deploy/local/serviceenv)
  (render_inputs && exec "$RENDERER" -values "$VALUES" -local "$ROOT/deploy/local/env.yaml" "$1")
}

# Identity assertions between services: one Ed25519 key per service that signs (the gateway for
# every call, and each service that calls another: the chart's values say which), made once per
# stack and kept in $STATE (never committed); made again when a signer has none.
identity_keys() {
  cd "$ROOT"
  local signers s
  signers=$("$RENDERER" -values "$VALUES" -signers)
  for s in $signers; do
    grep -q "^IDENTITY_KEY_$s=" "$STATE/identity.env" 2>/dev/null || { rm -f "$STATE/identity.env"; break; }
  done
  [ -s "$STATE/identity.env" ] && return
  log "making the stack's identity keys ($STATE/identity.env)"
  # shellcheck disable=SC2086 # one argument per signer
  (umask 077 && go run ./pkg/auth/cmd/identitykeys $signers > "$STATE/identity.env.tmp") &&
    mv "$STATE/identity.env.tmp" "$STATE/identity.env"
}

# The photo address secret: media checks photo addresses with it, and the services that call
# media sign them. Made once per stack and kept in $STATE (never committed).
media_url_secret() {
  [ -s "$STATE/mediaurl.env" ] && return
  (umask 077 && echo "MEDIA_URL_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" > "$STATE/mediaurl.env")
}

# The Web Push (VAPID) key of notification: made once per stack and kept in $STATE (never
# committed), so the devices' subscriptions outlive restarts.
vapid_key() {
  cd "$ROOT"
  [ -s "$STATE/vapid.env" ] && return
  (umask 077 && go run ./services/notification/cmd/vapidkey > "$STATE/vapid.env.tmp") && mv "$STATE/vapid.env.tmp" "$STATE/vapid.env"
}

# go_build_static: the services and the fakes with the flags MinIO's and Mailpit's installs use,
# so the standard library and the modules they share compile once on a fresh machine (cgo, or
# -trimpath on one side only, would compile a second copy of each).
go_build_static() { CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" "$@"; }

build_services() {
  cd "$ROOT"
  local s pkgs=()
  for s in "${SERVICES[@]}"; do
    [ -f "services/$s/cmd/$s/main.go" ] || { log "services/$s has no command yet: skipped"; continue; }
    pkgs+=("./services/$s/cmd/$s")
  done
  # One go build for all of them (the packages they share compile once, links run side by side);
  # the same flags as the Dockerfiles, so local figures (memory, speed) match the images. The
  # renderer of their environments comes along ($BIN/serviceenv).
  go_build_static -tags "$GO_BUILD_TAGS" -o "$BIN/" "${pkgs[@]}" ./deploy/local/serviceenv
  # The fakes (started by deps) in the same go: later builds of them are cache hits.
  go_build_static -o "$ROOT/.dev/" ./fakes/cmd/fakegemini ./fakes/cmd/fakeproducts
  identity_keys
  media_url_secret
  vapid_key
}

# service_port NAME public|admin: the port the plan gives the stack's service NAME.
service_port() {
  local i
  for i in "${!SERVICES[@]}"; do
    if [ "${SERVICES[$i]}" = "$1" ]; then
      if [ "$2" = admin ]; then echo $((ADMIN_BASE + i)); else echo $((PORT_BASE + i)); fi
      return
    fi
  done
  die "no service $1"
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

# why_exited NAME: the service's last error in one line (its JSON log's msg and err), else its
# last log line.
why_exited() {
  local line
  sleep 0.3 # the log pipe may still hold the last lines
  line=$(grep -E '"level":"(ERROR|FATAL)"|panic|fatal' "$STATE/$1.log" 2>/dev/null | tail -1)
  [ -n "$line" ] || line=$(tail -1 "$STATE/$1.log" 2>/dev/null)
  line=${line#\[$1\] }
  local msg err
  msg=$(sed -n 's/.*"msg":"\([^"]*\)".*/\1/p' <<< "$line")
  err=$(sed -n 's/.*"err\(or\)\{0,1\}":"\([^"]*\)".*/\2/p' <<< "$line")
  if [ -n "$msg$err" ]; then echo "${msg}${msg:+${err:+: }}${err}"; else echo "${line:0:300}"; fi
}

# exited NAME: when the service's process has ended, says so with why in one line and is true.
exited() {
  local pid status
  pid=$(cat "$STATE/$1.pid" 2>/dev/null) || return 1
  kill -0 "$pid" 2>/dev/null && return 1
  status=0; wait "$pid" 2>/dev/null || status=$?
  [ "$status" != 127 ] || status="unknown: not started by this shell"
  EXITED_STATUS=$status
  rm -f "$STATE/$1.pid"
  local why
  why=$(why_exited "$1")
  # Killed by a signal (137: SIGKILL, the out-of-memory killer's too): that is the reason.
  if [[ $status =~ ^[0-9]+$ ]] && ((status > 128)) && ! grep -qE '"level":"(ERROR|FATAL)"|panic' <<< "$(tail -5 "$STATE/$1.log" 2>/dev/null)"; then
    why="killed by SIG$(kill -l $((status - 128)) 2>/dev/null || echo $((status - 128)))"
  fi
  printf '\033[1;31m[stack]\033[0m %s exited (status %s): %s (log: %s)\n' "$1" "$status" "$why" "$STATE/$1.log" >&2
}

# is_ready NAME: the service's admin port answers /readyz as ready, with the service's own name
# (a stranger on the port, such as another stack's program, cannot pass for it).
is_ready() {
  curl -fsS --max-time 3 "http://127.0.0.1:$(service_port "$1" admin)/readyz" 2>/dev/null | grep -q "\"service\":\"$1\""
}

# wait_ready NAME...: each one ready within 30 s; one that exits meanwhile fails at once.
wait_ready() {
  local s n
  for s in "$@"; do
    [ -x "$BIN/$s" ] || continue
    for ((n = 0; n < 300; n++)); do
      is_ready "$s" && continue 2
      exited "$s" && die "$s did not start"
      sleep 0.1
    done
    tail -20 "$STATE/$s.log" >&2
    die "$s is not ready on $(service_port "$s" public): its admin port $(service_port "$s" admin) does not answer /readyz as $s (see $STATE/$s.log)"
  done
}

# ports_free NAME...: no program holds a port the stack's services are about to listen on.
ports_free() {
  local s p who
  for s in "$@"; do
    [ -x "$BIN/$s" ] || continue
    for p in $(service_port "$s" public) $(service_port "$s" admin); do
      answers "127.0.0.1:$p" || continue
      who=$(ss -Hltnp "sport = :$p" 2>/dev/null | sed -n 's/.*users:((\("[^"]*"\),pid=\([0-9]*\).*/\1 (pid \2)/p' | head -1)
      die "port $p, which $s needs (deploy/local/ports.env, STACK=$STACK), is held by ${who:-another program}: stop it, or is this stack already running?"
    done
  done
}

start_services() {
  ports_free "${SERVICES[@]}"
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
    service_port "$name" public >/dev/null
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
  ports) ports ;;
  url) echo "http://127.0.0.1:$PORT_BASE" ;; # the stack's gateway, for tests
  nats-url) nats_env "${2:?user}" | sed 's/^NATS_URL=//' ;; # a stack NATS user's URL, for tests
  start) install_tools; deps; build_services; start_services ;;
  stop) stop_services; [ "${2:-}" = --all ] && stop_deps; true ;;
  stop-service) shift; stop_named "$@" ;;
  start-service) shift; start_named "$@" ;;
  prepare) prepare ;;
  up) up ;;
  *) sed -n '2,22p' "$0"; exit 2 ;;
esac
