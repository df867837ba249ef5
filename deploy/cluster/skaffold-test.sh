#!/usr/bin/env bash
# make skaffold-test: skaffold itself against the local cluster, with the `cluster` profile of
# skaffold.yaml (whose build step is deploy/cluster/images.sh with buildah, pushing to the
# cluster's registry). `skaffold run` builds, pushes and deploys the chart and waits for it;
# then one `skaffold dev` cycle: a change to a service's source is rebuilt and rolled out, and
# stopping skaffold dev removes what it deployed. skaffold also validates skaffold.yaml against
# its own schema as it loads it. Prints what it did.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
. "$HERE/versions.env"
NS=santa-skaffold
PROBE=services/family/internal/ports/zz_skaffold_probe.go
SUITE=skaffold-test
. "$HERE/suite.sh"
. "$HERE/plan.sh" # plan dir: where build.sh built skaffold (deploy/cluster/buildplan)
SKAFFOLD_DIR=$(plan dir skaffold) || exit 1
export PATH=$SKAFFOLD_DIR:$HOME/.cache/santa/bin:$PATH
# No update check or usage data: there is no internet here, and CI is not a user.
export SKAFFOLD_UPDATE_CHECK=false
skaffold config set --global collect-metrics false >/dev/null
SKAFFOLD=(skaffold --kubeconfig "$KUBECONFIG" --kube-context santa-local -p cluster --default-repo localhost:5000)
log "$(skaffold version)"
# The in-chart dependencies' images, as make k8s-test imports them (fresh ones are skipped).
"$HERE/images.sh" deps || exit 1
kubectl delete namespace "$NS" --ignore-not-found --wait=true >/dev/null

# deployed: the image of each Deployment of the release, one per line.
deployed() {
  kubectl -n "$NS" get deployments -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.template.spec.containers[0].image}{"\n"}{end}'
}
# The gateway's readiness, on its admin port, through the API server's proxy.
gateway_ready() { kubectl get --raw "/api/v1/namespaces/$NS/services/gateway:admin/proxy/readyz" >/dev/null 2>&1; }

log "skaffold run (build with buildah, push to localhost:5000, helm deploy, status check)"
t1=$SECONDS
"${SKAFFOLD[@]}" run --status-check=true --port-forward=off 2>&1 | tee "$RESULTS/run.log" | grep -vE '^\s*$' | sed 's/^/  /' | tail -40
[ "${PIPESTATUS[0]}" = 0 ] || { fail "skaffold run"; explain_unready "$NS"; }
log "skaffold run took $((SECONDS - t1))s; deployed:"
deployed | sed 's/^/  /'
gateway_ready || fail "the gateway does not answer /readyz through the cluster"
# The dependencies' pods, by name and uid: skaffold dev must leave them running (skaffold.yaml's
# resourceSelector keeps its run-id label off their pod templates).
dependency_pods() {
  kubectl -n "$NS" get pods -l 'app.kubernetes.io/name in (postgresql,nats,redis)' \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.metadata.uid}{"\n"}{end}' | sort
}
pods_after_run=$(dependency_pods)

log "skaffold dev: one change and its reload"
t2=$SECONDS
trap 'rm -f "$ROOT/$PROBE"' EXIT
# skaffold dev's watcher needs an inotify instance of its own (cluster.sh raises the limit).
log "inotify instances open on this machine: $(find /proc/[0-9]*/fd -lname 'anon_inode:inotify' 2>/dev/null | wc -l) (limit per user: $(sysctl -n fs.inotify.max_user_instances))"
# `skaffold dev` also turns on the dev profile by itself (its activation), whose Auth emulator
# artifact the cluster profile does not build: -dev turns it off again.
"${SKAFFOLD[@]}" -p=-dev dev --status-check=true --port-forward=off --cleanup=true >"$RESULTS/dev.log" 2>&1 &
dev_pid=$!
# watching: how many times skaffold dev has said it waits for changes.
watching() { grep -c 'Watching for changes' "$RESULTS/dev.log"; }
# (skaffold.yaml's status check waits up to 10 minutes for the deploy; the build comes first.)
for _ in $(seq 900); do [ "$(watching)" -ge 1 ] && break; kill -0 $dev_pid 2>/dev/null || break; sleep 1; done
if [ "$(watching)" -ge 1 ]; then
  log "skaffold dev is watching after $((SECONDS - t2))s; changing the family service's source"
  # The image skaffold dev deployed before the change, which the change must replace.
  before=$(deployed | awk '$1 == "family" {print $2}')
  t3=$SECONDS
  printf 'package ports\n\n// A change skaffold dev must rebuild and roll out (deploy/cluster/skaffold-test.sh).\nconst skaffoldProbe = "%s"\n' "$(date +%s)" > "$ROOT/$PROBE"
  for _ in $(seq 600); do [ "$(watching)" -ge 2 ] && break; kill -0 $dev_pid 2>/dev/null || break; sleep 1; done
  after=$(deployed | awk '$1 == "family" {print $2}')
  if [ "$(watching)" -ge 2 ] && [ -n "$after" ] && [ "$after" != "$before" ]; then
    log "the change was rebuilt and rolled out in $((SECONDS - t3))s: family $before -> $after"
  else
    fail "skaffold dev did not roll out the change (family image $before -> ${after:-none}); the end of $RESULTS/dev.log:"
    grep -vE '^\s*$' "$RESULTS/dev.log" | tail -25 | sed 's/^/  /'
  fi
  grep -E 'Build \[|Tags used|Deployments stabilized|Starting deploy' "$RESULTS/dev.log" | sed 's/^/  /' | tail -20
  pods_after_dev=$(dependency_pods)
  if [ -n "$pods_after_run" ] && [ "$pods_after_dev" = "$pods_after_run" ]; then
    log "PostgreSQL, NATS and Redis kept running through skaffold dev's deploy and its reload ($(echo "$pods_after_run" | wc -l) pods, the same uids)"
  else
    fail "skaffold dev restarted the dependencies: after skaffold run"
    printf '%s\n' "$pods_after_run" | sed 's/^/    /'
    echo "  after skaffold dev's reload:"
    printf '%s\n' "$pods_after_dev" | sed 's/^/    /'
  fi
else
  fail "skaffold dev did not start watching; see $RESULTS/dev.log, whose end is:"
  grep -vE '^\s*$' "$RESULTS/dev.log" | tail -25 | sed 's/^/  /'
  explain_unready "$NS"
fi
rm -f "$ROOT/$PROBE"
kill -INT $dev_pid 2>/dev/null
for _ in $(seq 120); do kill -0 $dev_pid 2>/dev/null || break; sleep 1; done
kill -9 $dev_pid 2>/dev/null
left=$(kubectl -n "$NS" get deployments -o name 2>/dev/null | wc -l)
[ "$left" = 0 ] || fail "skaffold dev left $left Deployments behind"
kubectl delete namespace "$NS" --wait=true >/dev/null 2>&1
log "skaffold-test took $((SECONDS - t0))s; $([ $failed = 0 ] && echo passed || echo FAILED)"
exit $failed
