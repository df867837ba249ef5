# The start the cluster's test scripts share (k8s-test.sh, skaffold-test.sh), sourced after
# they set HERE, ROOT and SUITE: where results go, log and fail, and the cluster brought up (or
# reused) with kubectl pointed at it. t0 is when the suite started.
RESULTS=$ROOT/.dev/$SUITE
mkdir -p "$RESULTS"
log() { printf '\n\033[1;35m[%s]\033[0m %s\n' "$SUITE" "$*"; }
failed=0
fail() { log "FAILED: $*"; failed=1; }

deploy/chartcheck/install-helm.sh >/dev/null || exit 1
t0=$SECONDS
"$HERE/cluster.sh" up || exit 1
eval "$("$HERE/cluster.sh" env)"

# explain_unready NS: why a namespace's pods are not ready, for a failure's report: every pod,
# then for each one not ready its container states and the end of its logs (the crashed run's
# too, which is where a service says why it exited), then the namespace's warnings. Each pod's
# gist is one "unready:" line, which make test's failure summary picks out.
explain_unready() {
  local ns=$1 pod before now
  kubectl -n "$ns" get pods -o wide 2>&1 | sed 's/^/  /'
  for pod in $(kubectl -n "$ns" get pods -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | awk '$2 != "True" {print $1}'); do
    kubectl -n "$ns" get pod "$pod" -o jsonpath='{range .status.containerStatuses[*]}  {.name}: restarts={.restartCount} state={.state} last={.lastState}{"\n"}{end}'
    before=$(kubectl -n "$ns" logs "$pod" --all-containers --previous --tail 15 2>/dev/null)
    now=$(kubectl -n "$ns" logs "$pod" --all-containers --tail 15 2>/dev/null)
    [ -z "$before" ] || sed 's/^/  previous: /' <<<"$before"
    [ -z "$now" ] || sed 's/^/  now: /' <<<"$now"
    echo "unready: $pod ($(kubectl -n "$ns" get pod "$pod" -o jsonpath='{.status.phase}, restarts {.status.containerStatuses[0].restartCount}')): $(tail -2 <<<"${before:-${now:-no logs}}" | tr '\n' ' ')"
  done
  kubectl -n "$ns" get events --field-selector type=Warning --sort-by=.lastTimestamp 2>&1 | tail -25 | sed 's/^/  /'
}
