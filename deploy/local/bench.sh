#!/usr/bin/env bash
# make bench: starts the whole stack on the test ports with rate limits out of the way (the
# limiter still counts every request and syncs its counts to Redis), runs the load
# generator in tests/cmd/bench, prints its figures, and stops the stack.
# BENCH_BASELINE=COMMIT (such as main) also runs that commit's gateway and wishlist beside the
# stack's (stack.sh baseline), and the alternating rounds of floor and gateway take in its
# gateway too: before and after in one run, each against the same floor.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export STACK=test RATE_LIMIT_IP_PER_MINUTE=100000000 RATE_LIMIT_USER_PER_MINUTE=100000000 LOG_LEVEL=warn
# The bench's thousands of devices share one address; the per-address allowance of stream opens
# (a school's, 20,000 a minute) is not what `streams` and `reconnect` measure.
export RATE_LIMIT_STREAM_OPENS_IP_PER_MINUTE=100000000
# The barcode lookup's daily quotas off (0): `bench lookup` reaches the fake upstreams on purpose.
export LOOKUP_DAILY_QUOTA_PER_IP=0 LOOKUP_DAILY_QUOTA_PER_USER=0
deploy/local/stack.sh start
trap 'deploy/local/stack.sh stop' EXIT
go build -o .dev/test/bench ./tests/cmd/bench
if [ -n "${BENCH_BASELINE:-}" ]; then
  deploy/local/stack.sh baseline "$BENCH_BASELINE"
  url=$(deploy/local/stack.sh url)
  export BENCH_BASELINE_URL=${url/127.0.0.1/127.0.0.2}
  short=$(git rev-parse --short "$BENCH_BASELINE^{commit}")
  [ "$short" = "$BENCH_BASELINE" ] || BENCH_BASELINE="$BENCH_BASELINE ($short)"
fi
# With arguments, each is a scenario run against the same stack (make bench-streams:
# `streams reconnect`); live streams need a socket each, on both ends.
ulimit -n 20000 2>/dev/null || true
if [ $# -eq 0 ]; then
  BENCH_PID_DIR="$ROOT/.dev/test" .dev/test/bench
else
  for scenario in "$@"; do BENCH_PID_DIR="$ROOT/.dev/test" .dev/test/bench "$scenario"; done
fi
