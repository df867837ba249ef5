# shellcheck shell=bash
# Sourced by stack.sh: `stack.sh baseline COMMIT` and `baseline-stop`, make bench's before and
# after in one run (BENCH_BASELINE). Uses stack.sh's ROOT, STATE, PORT, PORT_BASE, log, die,
# plan, service_env, go_build_static and stop_named.

# baseline COMMIT: that commit's gateway and wishlist beside this started stack, so that make
# bench measures before and after in one run (BENCH_BASELINE). They are built from
# `git archive COMMIT` in .dev/baseline/COMMIT (kept: the next run starts at once) as the
# stack's are, and run with the stack's own environment (its database, keys, Redis, NATS and
# Auth emulator: what a second replica would get), listening on 127.0.0.2 at the same ports,
# the baseline gateway forwarding to the baseline wishlist. So no port is added to the plan,
# and the bench reaches the baseline at the stack's address with 127.0.0.2 in it. Their pid
# files are $STATE/NAME-baseline.pid (the bench reads their CPU from them); baseline-stop
# stops them.
BASELINE_HOST=127.0.0.2
baseline() {
  local commit dir s env
  commit=$(git -C "$ROOT" rev-parse --short=12 "${1:?commit}^{commit}") || die "no commit $1"
  dir=$ROOT/.dev/baseline/$commit
  if [ ! -x "$dir/bin/gateway" ] || [ ! -x "$dir/bin/wishlist" ]; then
    log "building the gateway and wishlist of $commit in $dir"
    rm -rf "$dir" && mkdir -p "$dir/src"
    git -C "$ROOT" archive "$commit" | tar -x -C "$dir/src"
    (cd "$dir/src" && go_build_static -tags "$GO_BUILD_TAGS" -o "$dir/bin/" ./services/gateway/cmd/gateway ./services/wishlist/cmd/wishlist)
  fi
  for s in wishlist gateway; do
    [ ! -f "$STATE/$s-baseline.pid" ] || die "a baseline $s runs already (stack.sh baseline-stop)"
    env=$(service_env "$s") || die "$s: its environment could not be rendered (above)"
    (
      while IFS= read -r line; do export "${line?}"; done <<< "$env"
      export LISTEN_HOST=$BASELINE_HOST
      # The baseline gateway's own wishlist: the one on the same address.
      [ "$s" != gateway ] || export WISHLIST_URL=${WISHLIST_URL/127.0.0.1/$BASELINE_HOST}
      [ -z "${PPROF_BASE:-}" ] || export PPROF_ADDR=$BASELINE_HOST:$((PPROF_BASE + PORT - PORT_BASE))
      exec "$dir/bin/$s"
    ) > "$STATE/$s-baseline.log" 2>&1 &
    echo $! > "$STATE/$s-baseline.pid"
    baseline_ready "$s"
  done
  log "baseline $commit: http://$BASELINE_HOST:$PORT_BASE"
}
# baseline_ready NAME: the baseline service's /readyz (its admin port, on 127.0.0.2) names it
# within 60 s.
baseline_ready() {
  local port n
  port=$(plan port "$1" admin)
  for ((n = 0; n < 600; n++)); do
    curl -sf "http://$BASELINE_HOST:$port/readyz" 2>/dev/null | grep -q "\"service\":\"$1\"" && return 0
    kill -0 "$(cat "$STATE/$1-baseline.pid")" 2>/dev/null || { tail -5 "$STATE/$1-baseline.log" >&2; die "baseline $1 exited"; }
    sleep 0.1
  done
  die "baseline $1 was not ready within 60 s (see $STATE/$1-baseline.log)"
}
baseline_stop() { stop_named gateway-baseline wishlist-baseline; }
