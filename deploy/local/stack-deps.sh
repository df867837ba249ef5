# shellcheck shell=bash
# shellcheck disable=SC2164 # stack.sh runs with set -e: a cd that fails stops it
# Part of deploy/local/stack.sh (sourced by it, not run on its own): the dependencies `deps`
# starts, each reused when something answers on its port (deploy/local/ports.env). What they
# read is decided in deploy/local/stackplan ($PLAN): the stack's NATS users and permissions,
# the Auth emulator's firebase.json, and when a port answers.

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

install_nats() {
  command -v nats-server >/dev/null || (cd /tmp && GOBIN=$TOOLS/bin go install "github.com/nats-io/nats-server/v2@$NATS_PIN")
}

start_nats() {
  answers 127.0.0.1:$NATS_PORT && return
  log "NATS does not answer on $NATS_PORT: starting a private one with JetStream"
  install_nats
  spawn nats nats-server -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$ROOT/.dev/nats"
  wait_port 127.0.0.1:$NATS_PORT NATS 10
}

# The services' NATS: the stack's own server, on a port of its own, with a user and password
# per service and publish/subscribe permissions per subject ($STATE/nats.conf, written by
# `stackplan nats-conf` with the passwords in $STATE/nats.env). The shared server (NATS_PORT)
# stays for the Go tests (which make their own streams).
stack_nats() {
  install_nats
  plan nats-conf
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
  plan firebase-json > "$ROOT/.dev/firebase/firebase.json"
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
