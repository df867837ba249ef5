#!/usr/bin/env bash
# Prometheus and Alertmanager (Debian's 2.42 and 0.25) watching a local stack (deploy/local):
# every service's admin port scraped, alerts.yaml evaluated, the golden-signals console at
# /consoles/santa.html. The cluster has the same rules and console; this is the quick loop.
#
#   monitor.sh start   in the background; prints the addresses
#   monitor.sh stop
#
# STACK=dev (the default): Prometheus http://127.0.0.1:9190, Alertmanager 9193, services on
# 8090-8095. STACK=test: 19190 and 19193, services on 18090-18095. The series carry
# namespace=$STACK and job=<service>, as the chart's ServiceMonitor gives them. ALERT_WEBHOOK_URL,
# when set, receives every alert and its resolution (the alert drills' receiver).
# SCRAPE_INTERVAL (5s) is also the rules' evaluation interval.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
STACK=${STACK:-dev}
STATE=$ROOT/.dev/$STACK/monitor
if [ "$STACK" = test ]; then BASE=18090 PROM=19190 AM=19193; else BASE=8090 PROM=9190 AM=9193; fi
SERVICES=(gateway wishlist vision media notification family)
INTERVAL=${SCRAPE_INTERVAL:-5s}
# Debian's example console libraries ("head", "tail", drill-down links, graphs).
CONSOLE_LIBRARIES=/usr/share/doc/prometheus/examples/console_libraries

start() {
  command -v prometheus >/dev/null && command -v prometheus-alertmanager >/dev/null || "$HERE/test-rules.sh" >/dev/null
  stop
  mkdir -p "$STATE"
  {
    printf 'global:\n  scrape_interval: %s\n  evaluation_interval: %s\n' "$INTERVAL" "$INTERVAL"
    printf 'rule_files: [%s/alerts.yaml]\n' "$HERE"
    printf 'alerting:\n  alertmanagers: [{static_configs: [{targets: ["127.0.0.1:%s"]}]}]\n' "$AM"
    printf 'scrape_configs:\n'
    local i
    for i in "${!SERVICES[@]}"; do
      printf '  - job_name: %s\n    static_configs: [{targets: ["127.0.0.1:%s"], labels: {namespace: %s}}]\n' \
        "${SERVICES[$i]}" $((BASE + i)) "$STACK"
    done
  } > "$STATE/prometheus.yml"
  {
    # Alerts are sent at once and their resolution within seconds: a drill measures the rules'
    # `for`, not Alertmanager's batching.
    printf 'route:\n  receiver: drill\n  group_by: [alertname, namespace, job, journey]\n'
    printf '  group_wait: 0s\n  group_interval: 1s\n  repeat_interval: 4h\n'
    printf 'receivers:\n  - name: drill\n'
    if [ -n "${ALERT_WEBHOOK_URL:-}" ]; then
      printf '    webhook_configs: [{url: "%s", send_resolved: true}]\n' "$ALERT_WEBHOOK_URL"
    fi
  } > "$STATE/alertmanager.yml"
  promtool check config "$STATE/prometheus.yml" >/dev/null
  amtool check-config "$STATE/alertmanager.yml" >/dev/null
  prometheus-alertmanager --config.file="$STATE/alertmanager.yml" --storage.path="$STATE/am-data" \
    --web.listen-address=127.0.0.1:$AM --cluster.listen-address= >"$STATE/alertmanager.log" 2>&1 &
  echo $! > "$STATE/alertmanager.pid"
  prometheus --config.file="$STATE/prometheus.yml" --storage.tsdb.path="$STATE/data" \
    --web.listen-address=127.0.0.1:$PROM --web.enable-lifecycle \
    --web.console.templates="$HERE/consoles" --web.console.libraries=$CONSOLE_LIBRARIES \
    >"$STATE/prometheus.log" 2>&1 &
  echo $! > "$STATE/prometheus.pid"
  local _
  for _ in $(seq 60); do
    curl -fs "http://127.0.0.1:$PROM/-/ready" >/dev/null && curl -fs "http://127.0.0.1:$AM/-/ready" >/dev/null && break
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$PROM/-/ready" >/dev/null || { tail -20 "$STATE/prometheus.log"; exit 1; }
  curl -fs "http://127.0.0.1:$AM/-/ready" >/dev/null || { tail -20 "$STATE/alertmanager.log"; exit 1; }
  echo "Prometheus http://127.0.0.1:$PROM (golden signals: /consoles/santa.html), Alertmanager http://127.0.0.1:$AM"
}

stop() {
  local p pid
  for p in prometheus alertmanager; do
    pid=$(cat "$STATE/$p.pid" 2>/dev/null) || continue
    kill "$pid" 2>/dev/null && while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    rm -f "$STATE/$p.pid"
  done
  rm -rf "$STATE/data" "$STATE/am-data"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: STACK=dev|test $0 start|stop" >&2; exit 2 ;;
esac
