#!/usr/bin/env bash
# make bench-first-run: a newcomer's first `make dev`, measured. A fresh clone of this checkout's
# HEAD with every cache empty (Go modules and build cache, npm cache, the stack's tools), `make
# dev` until ready, then Ctrl-C. Prints each step's wall and CPU time and the time to ready.
# The machine's PostgreSQL, Redis and NATS, and any shared dependency already answering
# (MinIO, Mailpit, the Auth emulator), are reused, as `make dev` does.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
F=${FIRST_RUN_DIR:-$(mktemp -d /tmp/santa-first-run.XXXXXX)}
mkdir -p "$F/home/.config/go"
cp ~/.config/go/env "$F/home/.config/go/env" 2>/dev/null || true
cp ~/.npmrc "$F/home/" 2>/dev/null || true
git clone -q "$ROOT" "$F/repo"
cd "$F/repo"
export HOME=$F/home GOMODCACHE=$F/mod GOCACHE=$F/cache npm_config_cache=$F/npm SANTA_TOOLS=$F/tools
echo "fresh clone and caches in $F; make dev started $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# Job control: make dev gets a process group of its own and SIGINT, as in a terminal.
set -m
make dev > "$F/dev.log" 2>&1 &
dev=$!
set +m
t=$SECONDS
until grep -q 'ready [0-9]* s after make dev started' "$F/dev.log"; do
  kill -0 "$dev" 2>/dev/null || { echo "make dev ended before ready:"; tail -20 "$F/dev.log"; exit 1; }
  sleep 1
done
grep -E '\[stack\].*(: [0-9]+ s \(CPU|installs and builds|dependencies:|ready [0-9]+ s)' "$F/dev.log" | sed 's/\x1b\[[0-9;]*m//g'
echo "load average at ready: $(cut -d' ' -f1-3 /proc/loadavg)"
kill -INT -- "-$dev"
wait "$dev" 2>/dev/null || true
# The caches are large (a few GB): kept only when asked for.
[ -n "${FIRST_RUN_DIR:-}" ] || rm -rf "$F"
