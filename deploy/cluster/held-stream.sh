# shellcheck shell=bash
# Part of deploy/cluster/k8s-test.sh (sourced by it): a live stream held through the ingress
# while the suites run. Traefik's default readTimeout (60 s) would end a streaming response;
# ingress.yaml raises it for the notification stream (SSE), and this shows it: a stream opened
# through Traefik after the end-to-end suite (which stops and starts the notification pods) must
# still be open, with its 15 s keep-alives arriving, after the browser suite and the dashboard
# check. K8S_STREAM_HOLD=SECONDS (at least 75) waits until it has
# been held that long, e.g. 1800 for the half hour a phone left open on the list would want.
# (At least one keep-alive for each 20 s held: they come every 15 s on a quiet stream.)
# Uses ingress_curl and INGRESS_URL (k8s-test-tls.sh), RESULTS, log and fail.

# held_stream_open TOKEN: opens the caller's notification stream through the ingress, in the
# background, its bytes into $RESULTS/held-stream.log.
held_stream_open() {
  HELD_LOG=$RESULTS/held-stream.log HELD_SINCE=$SECONDS
  ingress_curl -sSN -H "Authorization: Bearer $1" -H 'Accept: text/event-stream' \
    "$INGRESS_URL/api/notifications/stream" > "$HELD_LOG" 2>&1 &
  HELD_PID=$!
}

# held_stream_check: waits until the stream has been held K8S_STREAM_HOLD seconds (75 by
# default: past Traefik's 60 s), then checks that it is still open and saw its keep-alives, and
# closes it.
held_stream_check() {
  local want=${K8S_STREAM_HOLD:-75} held pings
  while [ $((SECONDS - HELD_SINCE)) -lt "$want" ] && kill -0 "$HELD_PID" 2>/dev/null; do sleep 5; done
  held=$((SECONDS - HELD_SINCE)) pings=$(grep -c '^: ping' "$HELD_LOG")
  if kill -0 "$HELD_PID" 2>/dev/null && grep -q '^event: hello' "$HELD_LOG" && [ "$pings" -ge $((held / 20)) ]; then
    log "a live stream held through the ingress (Traefik) for ${held}s and still open: hello, then $pings keep-alives"
  else
    fail "the live stream through the ingress did not hold: after ${held}s it is $(kill -0 "$HELD_PID" 2>/dev/null && echo open || echo closed) with $pings keep-alives; its start:"
    head -c 600 "$HELD_LOG" | sed 's/^/  /'
  fi
  kill "$HELD_PID" 2>/dev/null; wait "$HELD_PID" 2>/dev/null
}
