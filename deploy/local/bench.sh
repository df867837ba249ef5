#!/usr/bin/env bash
# make bench: starts the whole stack on the test ports with rate limits out of the way (the
# limiter still counts every request and syncs its counts to Redis), runs the load
# generator in tests/cmd/bench, prints its figures, and stops the stack.
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
# With arguments, each is a scenario run against the same stack (make bench-streams:
# `streams reconnect`); live streams need a socket each, on both ends.
ulimit -n 20000 2>/dev/null || true
if [ $# -eq 0 ]; then
  BENCH_PID_DIR="$ROOT/.dev/test" .dev/test/bench
else
  for scenario in "$@"; do BENCH_PID_DIR="$ROOT/.dev/test" .dev/test/bench "$scenario"; done
fi
