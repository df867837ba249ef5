# shellcheck shell=bash
# shellcheck disable=SC2164 # stack.sh runs with set -e: a cd that fails stops it
# Part of deploy/local/stack.sh (sourced by it, not run on its own): what `install`, `prepare`
# and `start` install and build, the first-run steps side by side, and the secrets a stack
# makes once. Its variables and functions (log, die, apt_install, ...) are stack.sh's.

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
