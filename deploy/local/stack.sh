#!/usr/bin/env bash
# The local stack: installs what is missing, reuses PostgreSQL, Redis and NATS when they answer
# on their standard ports (starting private ones when they do not), starts MinIO, the Firebase
# Auth emulator, Mailpit (SMTP with an HTTP API), a fake Gemini and fake product databases, and
# runs the six services.
#
#   stack.sh install         install tools into ~/.cache/santa (idempotent)
#   stack.sh up              everything in the foreground with prefixed logs (make dev); Ctrl-C stops it
#   stack.sh start           everything in the background, waits until ready (tests, benchmarks)
#   stack.sh stop            stops what `start` started
#   stack.sh deps            only the dependencies, in the background (Go tests)
#   stack.sh env             prints the environment the services run with
#   stack.sh nats-url USER   the URL of a user of the stack's NATS (tests: observer, media)
#   stack.sh stop-service S… / start-service S…   one service of a started stack down and up again
#
# STACK=test (the default for start/deps under `make test`) uses ports 18080-18085 (their
# /readyz and /metrics on 18090-18095), the database santa_test and the events namespace
# "test", so tests can run beside a `make dev` (8080-8085, 8090-8095, santa, "dev").
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

if [ "$STACK" = test ]; then PORT_BASE=18080; DB_NAME=santa_test; else PORT_BASE=8080; DB_NAME=santa; fi
PG_URL_ADMIN=${PG_URL_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
MINIO_ADDR=127.0.0.1:9000
EMULATOR_HOST=127.0.0.1:9099
MAILPIT_SMTP=127.0.0.1:1025
MAILPIT_HTTP=127.0.0.1:8025
FAKE_GEMINI_ADDR=127.0.0.1:8095
FAKE_PRODUCTS_ADDR=127.0.0.1:8096

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

install_tools() {
  command -v go >/dev/null || die "Go is required (https://go.dev/dl)"
  command -v npm >/dev/null || apt_install nodejs npm
  if [ ! -x "$TOOLS/bin/minio" ]; then
    log "installing MinIO $MINIO_PIN (takes a few minutes, once)"
    # Static (as the image's Dockerfile builds it), so the local cluster's image reuses it.
    (cd /tmp && CGO_ENABLED=0 GOBIN=$TOOLS/bin GOFLAGS=-buildvcs=false go install "github.com/minio/minio@$MINIO_PIN")
  fi
  if [ ! -x "$TOOLS/bin/mailpit" ]; then
    log "installing Mailpit $MAILPIT_PIN (takes a few minutes, once)"
    (cd /tmp && CGO_ENABLED=0 GOBIN=$TOOLS/bin GOFLAGS=-buildvcs=false go install "github.com/axllent/mailpit@$MAILPIT_PIN")
  fi
  if [ ! -x "$TOOLS/firebase/node_modules/.bin/firebase" ]; then
    log "installing firebase-tools $FIREBASE_TOOLS_PIN (the Auth emulator)"
    mkdir -p "$TOOLS/firebase"
    (cd "$TOOLS/firebase" && { [ -f package.json ] || echo '{"private":true}' > package.json; } &&
      npm install --no-audit --no-fund --loglevel=error "firebase-tools@$FIREBASE_TOOLS_PIN" >/dev/null)
  fi
  if ! command -v java >/dev/null && ! "$TOOLS/firebase/node_modules/.bin/firebase" --version >/dev/null 2>&1; then
    die "firebase-tools does not run"
  fi
  if [ -f "$ROOT/web/package.json" ] && [ ! -d "$ROOT/web/node_modules" ]; then
    log "installing web dependencies"
    (cd "$ROOT/web" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}

# --- dependencies --------------------------------------------------------------------------
start_postgres() {
  if answers 127.0.0.1:5432; then return; fi
  log "PostgreSQL does not answer on 5432: starting a private one"
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
  "${runas[@]}" "$pgbin/pg_ctl" -D "$data" -l "$ROOT/.dev/postgres.log" -o "-k /tmp -c listen_addresses=127.0.0.1 -p 5432" -w start >/dev/null
  echo "$pgbin/pg_ctl -D $data stop" > "$ROOT/.dev/private-postgres"
}

start_redis() {
  answers 127.0.0.1:6379 && return
  log "Redis does not answer on 6379: starting a private one"
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --pidfile "$ROOT/.dev/redis.pid" --logfile "$ROOT/.dev/redis.log"
  wait_port 127.0.0.1:6379 Redis 10
}

# The services reach Redis as the stack's own ACL user with a password (issue 13, point 9),
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
  answers 127.0.0.1:4222 && return
  log "NATS does not answer on 4222: starting a private one with JetStream"
  if ! command -v nats-server >/dev/null; then
    (cd /tmp && GOBIN=$TOOLS/bin go install "github.com/nats-io/nats-server/v2@$NATS_PIN")
  fi
  nohup nats-server -a 127.0.0.1 -p 4222 -js -sd "$ROOT/.dev/nats" > "$ROOT/.dev/nats.log" 2>&1 &
  echo $! > "$ROOT/.dev/nats.pid"
  wait_port 127.0.0.1:4222 NATS 10
}

# The services' NATS (issue 13, point 9): the stack's own server, on a port of its own, with a
# user and password per service and publish/subscribe permissions per subject, so that no
# service (and nobody without a password) can publish another's events, such as a forged
# item.deleted. The shared server on 4222 stays for the Go tests (which make their own
# streams). "observer" is for the end-to-end tests that read the stream.
NATS_STACK_ADDR=127.0.0.1:$([ "$STACK" = test ] && echo 14222 || echo 14223)
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
      permissions: { publish: ["$ns.item.>", "$ns.santa.>", "$ns.list.>", "$ns.user.>", $js, $ack], subscribe: [$inbox] } }
    { user: family, password: "$NATS_PASS_family",
      permissions: { publish: ["$ns.family.>", "$ns.secretsanta.>", $erased, $js, $ack], subscribe: [$inbox] } }
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
  nohup nats-server -c "$STATE/nats.conf" > "$STATE/nats-server.log" 2>&1 &
  echo $! > "$STATE/nats-server.pid"
  wait_port $NATS_STACK_ADDR "the stack's NATS" 10
}

# nats_env NAME: the service's own NATS user, if it uses NATS.
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
    nohup minio server "$ROOT/.dev/minio" --address $MINIO_ADDR --console-address 127.0.0.1:9001 --quiet \
    > "$ROOT/.dev/minio.log" 2>&1 &
  echo $! > "$ROOT/.dev/minio.pid"
  wait_port $MINIO_ADDR MinIO 60
}

# Mailpit receives every email locally (invitations); its web UI and API are on 8025.
start_mailpit() {
  answers $MAILPIT_SMTP && return
  log "starting Mailpit on $MAILPIT_SMTP (SMTP) and $MAILPIT_HTTP (API)"
  nohup mailpit --smtp $MAILPIT_SMTP --listen $MAILPIT_HTTP --database "$ROOT/.dev/mailpit.db" --quiet \
    > "$ROOT/.dev/mailpit.log" 2>&1 &
  echo $! > "$ROOT/.dev/mailpit.pid"
  wait_port $MAILPIT_SMTP Mailpit 20
}

start_emulator() {
  answers $EMULATOR_HOST && return
  log "starting the Firebase Auth emulator on $EMULATOR_HOST"
  cd "$ROOT/deploy/local" # firebase reads firebase.json from the working directory
  nohup "$TOOLS/firebase/node_modules/.bin/firebase" emulators:start --only auth --project demo-santa \
    > "$ROOT/.dev/auth-emulator.log" 2>&1 &
  echo $! > "$ROOT/.dev/auth-emulator.pid"
  cd "$ROOT"
  wait_port $EMULATOR_HOST "Auth emulator" 90
}

start_fake_gemini() {
  [ -n "${GEMINI_API_KEY:-}" ] && return 0 # a real key: use the real Gemini
  reuse_own fakegemini $FAKE_GEMINI_ADDR && return
  [ -f "$ROOT/services/vision/cmd/fakegemini/main.go" ] || return 0
  log "starting the fake Gemini on $FAKE_GEMINI_ADDR (no internet here)"
  go build -o "$ROOT/.dev/fakegemini" ./services/vision/cmd/fakegemini
  FAKE_GEMINI_ADDR=$FAKE_GEMINI_ADDR nohup "$ROOT/.dev/fakegemini" > "$ROOT/.dev/fakegemini.log" 2>&1 &
  echo $! > "$ROOT/.dev/fakegemini.pid"
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

# Fake Open Food Facts, Open Products Facts and UPCitemdb for the barcode lookup (issue 15).
start_fake_products() {
  reuse_own fakeproducts $FAKE_PRODUCTS_ADDR && return
  [ -f "$ROOT/services/vision/cmd/fakeproducts/main.go" ] || return 0
  log "starting the fake product databases on $FAKE_PRODUCTS_ADDR (no internet here)"
  go build -o "$ROOT/.dev/fakeproducts" ./services/vision/cmd/fakeproducts
  FAKE_PRODUCTS_ADDR=$FAKE_PRODUCTS_ADDR nohup "$ROOT/.dev/fakeproducts" > "$ROOT/.dev/fakeproducts.log" 2>&1 &
  echo $! > "$ROOT/.dev/fakeproducts.pid"
  wait_port $FAKE_PRODUCTS_ADDR "fake product databases" 20
}

ensure_database() {
  psql "$PG_URL_ADMIN" -qtAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1 ||
    psql "$PG_URL_ADMIN" -qc "CREATE DATABASE $DB_NAME" >/dev/null
}

deps() {
  cd "$ROOT"
  start_postgres; start_redis; redis_user; start_nats; stack_nats; start_minio; start_mailpit; start_emulator; start_fake_gemini; start_fake_products
  command -v psql >/dev/null || apt_install postgresql-client
  ensure_database
}

# --- services ------------------------------------------------------------------------------
service_env() {
  local db_url=${PG_URL_ADMIN%%/postgres\?*}/$DB_NAME?sslmode=disable
  cat <<ENV
LOG_LEVEL=${LOG_LEVEL:-info}
LISTEN_HOST=127.0.0.1
GOGC=${GOGC:-100}
GOMEMLIMIT=${GOMEMLIMIT:-off}
GODEBUG=${GODEBUG:-memprofilerate=0,adaptivestackstart=0}
DATABASE_URL=$db_url
REDIS_URL=$(services_redis_url)
NATS_URL=$NATS_URL
EVENTS_NAMESPACE=$STACK
FIREBASE_PROJECT_ID=demo-santa
FIREBASE_AUTH_EMULATOR_HOST=$EMULATOR_HOST
ALLOW_AUTH_EMULATOR=true
WISHLIST_URL=http://127.0.0.1:$((PORT_BASE + 1))
VISION_URL=http://127.0.0.1:$((PORT_BASE + 2))
MEDIA_URL=http://127.0.0.1:$((PORT_BASE + 3))
NOTIFICATION_URL=http://127.0.0.1:$((PORT_BASE + 4))
FAMILY_URL=http://127.0.0.1:$((PORT_BASE + 5))
SMTP_URL=${SMTP_URL:-smtp://$MAILPIT_SMTP}
PUBLIC_URL=http://localhost:$PORT_BASE
GEMINI_API_KEY=${GEMINI_API_KEY:-fake-dev-key}
GEMINI_BASE_URL=${GEMINI_BASE_URL:-$([ -n "${GEMINI_API_KEY:-}" ] || echo "http://$FAKE_GEMINI_ADDR")}
LOOKUP_OPENFOODFACTS_URL=http://$FAKE_PRODUCTS_ADDR/openfoodfacts
LOOKUP_OPENPRODUCTSFACTS_URL=http://$FAKE_PRODUCTS_ADDR/openproductsfacts
LOOKUP_UPCITEMDB_URL=http://$FAKE_PRODUCTS_ADDR/upcitemdb
# Test-only: the link importer may reach this one local "shop" (the e2e suite's) and the fake
# product databases' picture host, although loopback is refused everywhere else; the chart has
# no way to set it.
LOOKUP_FETCH_TEST_ALLOW=127.0.0.3:$((PORT_BASE + 9)),$FAKE_PRODUCTS_ADDR
MINIO_ENDPOINT=$MINIO_ADDR
MINIO_ACCESS_KEY=santa
MINIO_SECRET_KEY=santa-secret-key
MINIO_BUCKET=santa-$STACK
REDIS_KEY_PREFIX=gw-$STACK
# Each user's storage quota; the test stack's is small enough for make security to exhaust.
MEDIA_QUOTA_IMAGES=${MEDIA_QUOTA_IMAGES:-$([ "$STACK" = test ] && echo 20 || echo 500)}
RATE_LIMIT_IP_PER_MINUTE=${RATE_LIMIT_IP_PER_MINUTE:-600}
RATE_LIMIT_USER_PER_MINUTE=${RATE_LIMIT_USER_PER_MINUTE:-240}
ENV
  [ -f "$ROOT/web/dist/index.html" ] && echo "WEB_DIR=$ROOT/web/dist"
  return 0
}

# Identity assertions between services (issue 13): one Ed25519 key per service that signs
# (the gateway for every call, wishlist and vision for their uploads to media), made once per
# stack and kept in $STATE (never committed).
identity_keys() {
  cd "$ROOT"
  [ -s "$STATE/identity.env" ] && return
  log "making the stack's identity keys ($STATE/identity.env)"
  (umask 077 && go run ./pkg/auth/cmd/identitykeys gateway wishlist vision > "$STATE/identity.env.tmp") &&
    mv "$STATE/identity.env.tmp" "$STATE/identity.env"
}

# The photo address secret (issue 18): wishlist, vision and media sign photo addresses with it
# and media checks them. Made once per stack and kept in $STATE (never committed).
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

# identity_env NAME: the service's own signing key (only its own) and the public keys of the
# services it accepts calls from: the gateway's everywhere, wishlist's and vision's at media.
identity_env() {
  local IDENTITY_KEY_gateway IDENTITY_KEY_wishlist IDENTITY_KEY_vision IDENTITY_PUB_gateway IDENTITY_PUB_wishlist IDENTITY_PUB_vision
  # shellcheck disable=SC1091
  . "$STATE/identity.env"
  local key=IDENTITY_KEY_$1
  [ -z "${!key:-}" ] || echo "IDENTITY_SIGNING_KEY=${!key}"
  if [ "$1" = media ]; then
    echo "IDENTITY_PUBLIC_KEYS=gateway=$IDENTITY_PUB_gateway,wishlist=$IDENTITY_PUB_wishlist,vision=$IDENTITY_PUB_vision"
  else
    echo "IDENTITY_PUBLIC_KEYS=gateway=$IDENTITY_PUB_gateway"
  fi
  case $1 in wishlist | vision | media) cat "$STATE/mediaurl.env" ;; esac
  # Test-only: subscriptions may point at the e2e suite's local push service, and pushes reach
  # it, although loopback is refused everywhere else; the chart has no way to set it.
  [ "$1" != notification ] || { cat "$STATE/vapid.env"; echo "PUSH_ALLOW=127.0.0.4:$((PORT_BASE + 8))"; }
}

build_services() {
  cd "$ROOT"
  identity_keys
  media_url_secret
  vapid_key
  local s
  for s in "${SERVICES[@]}"; do
    [ -f "services/$s/cmd/$s/main.go" ] || { log "services/$s has no command yet: skipped"; continue; }
    # The same flags as the Dockerfiles, so local figures (memory, speed) match the images.
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -tags "$GO_BUILD_TAGS" -o "$BIN/$s" "./services/$s/cmd/$s"
  done
}

run_service() { # name port -> runs in background with prefixed log lines
  local name=$1 port=$2
  [ -x "$BIN/$name" ] || return 0
  (
    set -a; eval "$(service_env)"; eval "$(identity_env "$name")"; eval "$(nats_env "$name")"; set +a
    export PORT=$port
    # /readyz and /metrics are answered only on the admin port, never on the public one.
    export ADMIN_PORT=$((port + 10))
    # Media decodes images: a soft memory limit keeps its garbage collected under load, and
    # sizes its decoding budget (half of it, MEDIA_DECODE_MEMORY) as in the cluster.
    [ "$name" != media ] || [ "${GOMEMLIMIT:-off}" != off ] || export GOMEMLIMIT=100MiB
    # PPROF_BASE=6060 gives each service a profiler on 6060 + (port - PORT_BASE).
    [ -z "${PPROF_BASE:-}" ] || export PPROF_ADDR=127.0.0.1:$((PPROF_BASE + port - PORT_BASE))
    exec "$BIN/$name"
  ) > >(if [ "${FOREGROUND:-}" = 1 ]; then sed -u "s/^/[$name] /" | tee -a "$STATE/$name.log"; else sed -u "s/^/[$name] /" >> "$STATE/$name.log"; fi) 2>&1 &
  echo $! > "$STATE/$name.pid"
}

start_services() {
  : > "$STATE/pids"
  local i=0 s
  for s in "${SERVICES[@]}"; do
    run_service "$s" $((PORT_BASE + i))
    i=$((i + 1))
  done
  i=0
  for s in "${SERVICES[@]}"; do
    if [ -x "$BIN/$s" ]; then
      local port=$((PORT_BASE + i)) n
      for ((n = 0; n < 300; n++)); do
        curl -fsS "http://127.0.0.1:$((port + 10))/readyz" >/dev/null 2>&1 && break
        sleep 0.1
      done
      curl -fsS "http://127.0.0.1:$((port + 10))/readyz" >/dev/null 2>&1 || { tail -20 "$STATE/$s.log" >&2; die "$s is not ready on $port (see $STATE/$s.log)"; }
    fi
    i=$((i + 1))
  done
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
    rm -f "$STATE/$s.pid"
  done
}
start_named() {
  local name i port n
  for name in "$@"; do
    for i in "${!SERVICES[@]}"; do [ "${SERVICES[$i]}" = "$name" ] && port=$((PORT_BASE + i)); done
    [ -n "${port:-}" ] || die "no service $name"
    run_service "$name" "$port"
    for ((n = 0; n < 300; n++)); do
      curl -fsS "http://127.0.0.1:$((port + 10))/readyz" >/dev/null 2>&1 && break
      sleep 0.1
    done
    curl -fsS "http://127.0.0.1:$((port + 10))/readyz" >/dev/null 2>&1 || die "$name is not ready on $port"
    port=
  done
}

stop_deps() { # only what this script started
  local f
  for f in "$ROOT"/.dev/{minio,mailpit,auth-emulator,fakegemini,fakeproducts,nats,redis}.pid "$STATE/nats-server.pid"; do
    [ -f "$f" ] && { kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }
  done
  if [ -f "$ROOT/.dev/private-postgres" ]; then
    local runas=(); [ "$(id -u)" = 0 ] && runas=(runuser -u postgres --)
    "${runas[@]}" $(cat "$ROOT/.dev/private-postgres") >/dev/null 2>&1 || true
    rm -f "$ROOT/.dev/private-postgres"
  fi
}

case "${1:-}" in
  install) install_tools ;;
  deps) install_tools; deps ;;
  env) service_env ;;
  nats-url) nats_env "${2:?user}" | sed 's/^NATS_URL=//' ;; # a stack NATS user's URL, for tests
  start) install_tools; deps; build_services; start_services ;;
  stop) stop_services; [ "${2:-}" = --all ] && stop_deps; true ;;
  stop-service) shift; stop_named "$@" ;;
  start-service) shift; start_named "$@" ;;
  up)
    FOREGROUND=1 # make dev shows every service's log, prefixed; start only writes the files
    install_tools; deps; build_services
    trap 'log "stopping"; stop_services; sleep 1; stop_deps; exit 0' INT TERM
    start_services
    log "Ctrl-C stops everything"
    wait
    ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
