#!/usr/bin/env bash
# The newcomer's `make dev`, as a test (make smoke; make test runs it): `stack.sh up` in the
# foreground as make dev runs it, on the smoke profile (the dev profile on ports, a database and
# an events namespace of its own, so it runs beside a developer's `make dev` and the test
# stack). It waits for "ready", calls one route of every service through the gateway and adds a
# gift in Chromium (web/e2e/smoke), sends Ctrl-C, and checks that nothing it started is left:
# no process of its process group, none of its ports, no shared dependency it had to start.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export STACK=smoke
STACK_SH=deploy/local/stack.sh
OUT=$ROOT/.dev/smoke-run
mkdir -p "$OUT"
LOG=$OUT/up.log
READY_WITHIN=${SMOKE_READY_WITHIN:-900} # seconds; a first run builds everything

say() { printf '\033[1;36m[smoke]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[smoke] FAIL\033[0m %s\n' "$*"; failed=1; }
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
failed=0
# Chromium (Debian's) drives the web part, as in make test.
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null; } || exit 1
URL=$($STACK_SH url)

# Every port this profile owns, and the shared ones nobody serves yet: after the stop, none of
# them may answer (what `up` found running it leaves running).
own_ports=$($STACK_SH ports | awk '$1 == "smoke" {print $3}')
idle_shared=$($STACK_SH ports | awk '$1 == "shared" {print $3}' | while read -r p; do answers "$p" || echo "$p"; done)
for p in $own_ports; do answers "$p" && { fail "port $p of the smoke profile is already taken"; exit 1; }; done

# Job control gives `up` a process group of its own, as a terminal would, and leaves SIGINT to
# it (a non-interactive shell's background jobs would ignore it).
set -m
$STACK_SH up > "$LOG" 2>&1 &
up=$!
set +m
say "stack.sh up (STACK=smoke, pid $up, log $LOG)"

t=$SECONDS
until grep -q '\[stack\].* ready ' "$LOG" 2>/dev/null; do
  if ! kill -0 "$up" 2>/dev/null; then fail "stack.sh up ended before ready:"; tail -25 "$LOG"; break; fi
  if ((SECONDS - t > READY_WITHIN)); then fail "not ready within $READY_WITHIN s:"; tail -25 "$LOG"; break; fi
  sleep 1
done
if [ "$failed" = 0 ]; then
  say "ready in $((SECONDS - t)) s: $(grep -o 'ready [0-9]* s after make dev started' "$LOG")"
  # The profile's readiness answers name their service (stack.sh checked them; shown here).
  for l in $($STACK_SH ports | awk '$1 == "smoke" && $2 ~ /-admin$/ {print $2 ":" $3}'); do
    curl -fsS --max-time 5 "http://127.0.0.1:${l#*:}/readyz" | grep -q "\"service\":\"${l%-admin:*}\"" ||
      fail "${l%-admin:*} does not answer /readyz with its name on ${l#*:}"
  done
  (cd web && E2E_SMOKE=1 E2E_BASE_URL=$URL npx playwright test --project smoke --output "$OUT/playwright") || fail "the smoke spec (web/e2e/smoke) failed"
fi

say "Ctrl-C"
kill -INT -- "-$up" 2>/dev/null
for ((n = 0; n < 600; n++)); do kill -0 "$up" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$up" 2>/dev/null; then fail "stack.sh up still runs 60 s after Ctrl-C"; kill -KILL -- "-$up" 2>/dev/null; fi
wait "$up" 2>/dev/null; status=$?
[ "$status" = 0 ] || fail "stack.sh up ended with status $status after Ctrl-C"
grep -q '\[stack\].* stopped' "$LOG" || fail "stack.sh up did not say it stopped"

# Nothing left: no process of its group, none with the profile's state in its command line, no
# listener on its ports or on a shared port it had to open.
# A process that has exited but is not yet reaped (a zombie, for a moment) is not left running:
# the group is read without zombies, for up to 10 s while the last ones are reaped.
living_in_group() { ps -eo pid=,pgid=,stat=,args= | awk -v g="$up" '$2 == g && $3 !~ /^Z/'; }
for ((n = 0; n < 100; n++)); do [ -z "$(living_in_group)" ] && break; sleep 0.1; done
left=$(living_in_group; pgrep -af "$ROOT/\.dev/smoke/" 2>/dev/null)
[ -z "$left" ] || fail "processes left after Ctrl-C: $left"
for p in $own_ports $idle_shared; do answers "$p" && fail "port $p still answers after Ctrl-C"; done

if [ "$failed" = 0 ]; then say "ok: ready, every service answered, a gift counted, and nothing left after Ctrl-C"; else say "see $LOG"; fi
exit "$failed"
