#!/usr/bin/env bash
# make k8s-test: the product on a real Kubernetes. Brings the local cluster up (or reuses it),
# builds and imports the images, installs the chart with the dev profile plus
# deploy/cluster/values.yaml and Prometheus and Alertmanager beside it (monitoring.yaml), waits
# for every Deployment and StatefulSet, runs the end-to-end API suite against the gateway
# through the cluster, then the web app in Chromium through the ingress controller (Traefik,
# ingress.yaml) on its host name over HTTPS (cert-manager's local CA, k8s-test-tls.sh), checks that every dashboard panel has data in that Prometheus, then the
# drills (rollouts, dependency pods deleted, a pod killed, network policies, PostgreSQL restored
# from its pgBackRest backups: its volume lost, a named time, a missing backup refused) and the
# alert drills (a service stopped, a pod crash-looping, NATS gone, a consumer's backlog filled,
# the last backup too old: the alert reaches Alertmanager and resolves),
# then uninstalls. Prints what it did and what was lost.
#   K8S_KEEP=1  leaves the release installed afterwards (to look around with cluster.sh kubectl)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
. "$HERE/versions.env"
HELM=${HELM:-$HOME/.cache/santa/bin/helm}
NS=santa-k8s-test
RELEASE=santa
SUITE=k8s-test
. "$HERE/suite.sh"
NODE_IP=$(kubectl get node -o jsonpath='{.items[0].status.addresses[?(@.type=="InternalIP")].address}')
log "cluster ready after $((SECONDS - t0))s"
kubectl version 2>/dev/null | sed 's/^/  /'
kubectl get nodes -o wide | sed 's/^/  /'

log "images"
t1=$SECONDS
"$HERE/images.sh" deps || exit 1
TAG=$("$HERE/images.sh" services | tail -1) || exit 1
"$HERE/images.sh" monitoring || exit 1
"$HERE/images.sh" ingress || exit 1
"$HERE/images.sh" keda || exit 1
log "images ready after $((SECONDS - t1))s (services tagged $TAG)"

# The ingress controller, Traefik (ingress.yaml): cluster-wide like the add-ons, so applied
# every run (unchanged, nothing restarts) and left in place. The chart's Ingress names its class.
. "$HERE/k8s-test-tls.sh" # INGRESS_*, ingress_curl, tls_install, tls_after_install, tls_checks, tls_browser_env
log "ingress controller: Traefik $TRAEFIK_VERSION (namespace ingress, IngressClass traefik, node ports $INGRESS_PORT https, $INGRESS_HTTP_PORT http)"
sed "s|@TRAEFIK_VERSION@|$TRAEFIK_VERSION|g; s|@NODE_IP@|$NODE_IP|g" "$HERE/ingress.yaml" | kubectl apply -f - >/dev/null ||
  { fail "ingress.yaml"; exit 1; }
kubectl -n ingress rollout status deployment/traefik --timeout 180s >/dev/null ||
  { fail "Traefik did not become ready"; kubectl -n ingress describe pods | tail -30; exit 1; }
tls_install || exit 1

# KEDA (keda.yaml), likewise cluster-wide and left in place: its CRDs must exist before the
# chart's ScaledObjects. Its own kustomization comes from its module, beside which keda.yaml is
# written; server-side, as its ScaledJob CRD is too large for client-side apply.
log "autoscaler: KEDA $KEDA_VERSION (namespace keda), reading the release's Prometheus"
keda_dir=${K8S_CACHE:-$HOME/.cache/santa/k8s}/keda-manifests-$KEDA_VERSION
keda_mod=$(cd /tmp && go mod download -json "github.com/kedacore/keda/v2@$KEDA_VERSION" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
rm -rf "$keda_dir" && mkdir -p "$keda_dir" && cp -r "$keda_mod/config/." "$keda_dir/" && chmod -R u+w "$keda_dir" &&
  mkdir -p "$keda_dir/santa" && sed "s|@KEDA_VERSION@|$KEDA_VERSION|g" "$HERE/keda.yaml" > "$keda_dir/santa/kustomization.yaml" &&
  kubectl apply --server-side --force-conflicts -k "$keda_dir/santa" >/dev/null || { fail "keda.yaml"; exit 1; }
for d in keda-operator keda-metrics-apiserver; do
  kubectl -n keda rollout status "deployment/$d" --timeout 180s >/dev/null ||
    { fail "KEDA's $d did not become ready"; kubectl -n keda describe pods | tail -30; exit 1; }
done
# A fresh operator for each run: on a reused cluster the one before kept its HTTP connections to the
# last run's Prometheus, whose pod address a new pod (a service's metrics port) had taken; its
# queries got that pod's 404 and KEDA never scaled a paused service back.
kubectl -n keda rollout restart deployment/keda-operator >/dev/null &&
  kubectl -n keda rollout status deployment/keda-operator --timeout 180s >/dev/null || { fail "KEDA's operator did not restart"; exit 1; }
kubectl wait --for=condition=Available apiservice/v1beta1.external.metrics.k8s.io --timeout 120s >/dev/null ||
  { fail "KEDA's external metrics API is not available"; kubectl get apiservice v1beta1.external.metrics.k8s.io -o yaml | tail -15; exit 1; }

# A clean namespace each run, under Pod Security "restricted".
kubectl delete namespace "$NS" --ignore-not-found --wait=true >/dev/null
kubectl create namespace "$NS" >/dev/null
kubectl label namespace "$NS" pod-security.kubernetes.io/enforce=restricted \
  pod-security.kubernetes.io/warn=restricted >/dev/null

log "helm install (dev profile + deploy/cluster/values.yaml)"
t2=$SECONDS
FAKES_IP=10.96.0.96
sed "s|@TAG@|$TAG|g; s|@FAKES_IP@|$FAKES_IP|g" "$HERE/fakes.yaml" | kubectl -n "$NS" apply -f - >/dev/null
# vision's egress (the NetworkPolicies are enforced): the suite's "shop" on this machine's address.
SHOP_EGRESS="{\"to\": [{\"ipBlock\": {\"cidr\": \"$NODE_IP/32\"}}], \"ports\": [{\"protocol\": \"TCP\", \"port\": 18089}]}"
"$HELM" upgrade --install "$RELEASE" charts/santa-wishlist -n "$NS" \
  -f deploy/values/dev.yaml -f "$HERE/values.yaml" --set-string image.tag="$TAG" \
  "${TLS_SET[@]}" \
  --set-json "services.vision.extraEgress.shop=$SHOP_EGRESS" 2>&1 | tee "$RESULTS/helm.log" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || { fail "helm install"; exit 1; }
# The suite's local "shop" (on this machine's address) and the fake product databases' picture
# host (fakes.yaml pins its address) are private addresses vision's SSRF guard refuses. The
# chart refuses this test-only allowance by design, so it is added here, as the local stacks add
# it (deploy/local/env.yaml).
kubectl -n "$NS" set env deployment/vision LOOKUP_FETCH_TEST_ALLOW="$NODE_IP:18089,$FAKES_IP:8096" >/dev/null
tls_after_install
# Prometheus and Alertmanager beside the release (monitoring.yaml): the rules and the console
# from deploy/observability, the alerts sent to the alert drills' receiver on this machine.
ALERT_WEBHOOK_ADDR=$NODE_IP:19094
kubectl -n "$NS" create configmap santa-alerts --from-file=deploy/observability/alerts.yaml >/dev/null &&
  kubectl -n "$NS" create configmap santa-consoles --from-file=deploy/observability/consoles >/dev/null &&
  sed "s|@WEBHOOK_URL@|http://$ALERT_WEBHOOK_ADDR/|" "$HERE/monitoring.yaml" | kubectl -n "$NS" apply -f - >/dev/null ||
  { fail "monitoring.yaml"; exit 1; }
kubectl -n "$NS" get all,pdb,hpa,scaledobject,networkpolicy,pvc -o name | sed 's|/.*||' | sort | uniq -c | sed 's/^/  installed: /'

# rollout_all: waits for every Deployment and StatefulSet, printing how long each took.
rollout_all() {
  local kind name s
  for kind in statefulset deployment; do
    for name in $(kubectl -n "$NS" get "$kind" -o name); do
      s=$SECONDS
      if kubectl -n "$NS" rollout status "$name" --timeout 300s >/dev/null; then
        printf '  %-45s ready after %3ss\n' "$name" "$((SECONDS - s))"
      else
        fail "$name did not become ready"
        kubectl -n "$NS" describe "$name" | tail -20
        kubectl -n "$NS" get pods -o wide
        return 1
      fi
    done
  done
}
rollout_all || { explain_unready "$NS"; exit 1; }
log "installed and ready after $((SECONDS - t2))s"
kubectl -n "$NS" get pods -o wide | sed 's/^/  /'
# The ingress controller's pods, and the chart's Ingress it serves.
kubectl -n ingress get pods -o wide | sed 's/^/  ingress: /'
ingress_ready=$(kubectl -n ingress get pods -l app.kubernetes.io/name=traefik \
  -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -c True)
log "ingress controller: $ingress_ready Traefik pods Ready"
[ "$ingress_ready" -ge 1 ] || fail "no Traefik pod is Ready"
kubectl -n "$NS" get ingress -o wide | sed 's/^/  /'
# The StatefulSets' volumes, made on demand by the storage class's provisioner.
kubectl -n "$NS" get pvc -o custom-columns=CLAIM:.metadata.name,STATUS:.status.phase,VOLUME:.spec.volumeName,CLASS:.spec.storageClassName | sed 's/^/  /'

# The ways in from this machine, as skaffold's port-forwards would be, but through Services
# (NodePorts) so traffic follows the pods through rollouts.
nodeport() { # name target-label port nodePort
  kubectl -n "$NS" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: {name: k8s-test-$1}
spec:
  type: NodePort
  selector: {app.kubernetes.io/name: $2}
  ports: [{port: $3, targetPort: $3, nodePort: $4}]
EOF
}
nodeport gateway gateway 8080 30080
nodeport emulator firebase-auth-emulator 9099 30099
nodeport mailpit mailpit 8025 30025
nodeport products fake-internet 8096 30096
nodeport postgresql postgresql 5432 30432
nodeport minio minio 9000 30900
nodeport nats nats 4222 30422
nodeport redis redis 6379 30379
nodeport prometheus prometheus 9090 30990
nodeport alertmanager alertmanager 9093 30993
secret() { kubectl -n "$NS" get secret "$1" -o jsonpath="{.data.$2}" | base64 -d; }
export SANTA_E2E_URL=http://$NODE_IP:30080
export FIREBASE_AUTH_EMULATOR_HOST=$NODE_IP:30099
export SANTA_MAILPIT_URL=http://$NODE_IP:30025
export SANTA_E2E_FAKE_PRODUCTS=http://$NODE_IP:30096 SANTA_E2E_FAKE_PRODUCTS_INSIDE=http://fake-internet:8096
export SANTA_E2E_DATABASE_URL="postgres://santa:$(secret postgresql password)@$NODE_IP:30432/santa?sslmode=disable"
export EVENTS_NAMESPACE=dev
# NATS as the gateway's user (it may read the stream), Redis and MinIO with the chart's
# generated passwords: what the suite inspects behind the API.
export TEST_NATS_URL="nats://gateway:$(secret nats gateway)@$NODE_IP:30422"
export TEST_REDIS_URL="redis://:$(secret redis password)@$NODE_IP:30379/0"
export TEST_MINIO_ENDPOINT=$NODE_IP:30900 TEST_MINIO_BUCKET=santa-media
export TEST_MINIO_ACCESS_KEY=$(secret minio root-user) TEST_MINIO_SECRET_KEY=$(secret minio root-password)
# The suite's "shop" listens on this machine's address, which vision's SSRF guard lets it reach
# (LOOKUP_FETCH_TEST_ALLOW below) as the test stack lets it reach 127.0.0.3.
export SANTA_E2E_SHOP_HOST=$NODE_IP
export K8S_NAMESPACE=$NS KUBECTL=$(command -v kubectl)
# The cluster's Prometheus (5 s scrape and evaluation) and where Alertmanager's webhook sends.
export SANTA_PROMETHEUS_URL=http://$NODE_IP:30990 SANTA_MONITOR_NAMESPACE=$NS SANTA_SCRAPE_INTERVAL=5s
export SANTA_ALERT_WEBHOOK_ADDR=$ALERT_WEBHOOK_ADDR
# The ingress controller, for the network policy drill: its namespace, and where it answers.
export SANTA_INGRESS_NAMESPACE=ingress SANTA_INGRESS_ADDR=$NODE_IP:$INGRESS_PORT SANTA_INGRESS_HOST=$INGRESS_HOST SANTA_INGRESS_CA=$TLS_CA
# Ready pods are not yet a working product: kube-proxy programs the new Services' addresses a
# little later. Wait until a signed-in user gets answers through every service.
warm_up() {
  local token url ok
  token=$(curl -fsS -X POST -H 'Content-Type: application/json' \
    "http://$FIREBASE_AUTH_EMULATOR_HOST/identitytoolkit.googleapis.com/v1/accounts:signUp?key=warm-up" \
    -d "{\"email\":\"warm-up-$RANDOM$RANDOM@example.com\",\"password\":\"secret123\",\"returnSecureToken\":true}" |
    sed -n 's/.*"idToken": *"\([^"]*\)".*/\1/p') || return 1
  [ -n "$token" ] || return 1
  WARM_TOKEN=$token
  for url in /api/wishlist /api/lists /api/notifications /api/families; do
    ok=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$SANTA_E2E_URL$url")
    [ "$ok" = 200 ] || return 1
  done
}
warm_up_ingress() {
  local token=$1 url
  for url in /api/wishlist /api/lists /api/notifications /api/families; do
    [ "$(ingress_curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$INGRESS_URL$url")" = 200 ] || return 1
  done
  ingress_curl -fsS "$INGRESS_URL/" | grep -q '<div id="root"' || return 1
}
t3=$SECONDS WARM_TOKEN=
for _ in $(seq 90); do warm_up && break; sleep 1; done
warm_up || fail "the product did not answer through every service"
log "every service answers through the gateway after $((SECONDS - t3))s"
t3=$SECONDS
for _ in $(seq 90); do warm_up_ingress "$WARM_TOKEN" && break; sleep 1; done
if warm_up_ingress "$WARM_TOKEN"; then
  log "the web app and every service answer through the ingress ($INGRESS_URL, Traefik) after $((SECONDS - t3))s"
else
  fail "the web app or the API did not answer through the ingress ($INGRESS_URL)"
  ingress_curl -sS -D - -o /dev/null "$INGRESS_URL/api/config" | sed 's/^/  /'
fi
tls_checks

log "end-to-end API suite through the cluster's gateway ($SANTA_E2E_URL)"
go test -count=1 -v -tags e2e ./tests/e2e/... 2>&1 | tee "$RESULTS/e2e.log" | grep -E '^(ok|FAIL|panic:)|^\s*--- (FAIL|SKIP)|_test\.go:[0-9]+:'
[ "${PIPESTATUS[0]}" = 0 ] || fail "end-to-end suite"
printf '  e2e through the cluster: %s passed, %s failed, %s skipped\n' \
  "$(grep -cE '^\s*--- PASS' "$RESULTS/e2e.log")" "$(grep -cE '^\s*--- FAIL' "$RESULTS/e2e.log")" "$(grep -cE '^\s*--- SKIP' "$RESULTS/e2e.log")"

# After the suite, which stops and starts services (the notification pods among them).
. "$HERE/held-stream.sh" # held_stream_open, held_stream_check
held_stream_open "$WARM_TOKEN"
# The web app in a real browser through the ingress (web/e2e/cluster): two people sign in
# at the cluster's Auth emulator, one adds a gift and shares the list, the other claims it, and
# a third, with the list open, sees it taken live (the notification stream through Traefik).
log "the web app in Chromium through the ingress ($INGRESS_URL -> $NODE_IP:$INGRESS_PORT)"
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null; }
[ -x web/node_modules/.bin/playwright ] || (cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci >/dev/null)
rm -rf "$RESULTS/playwright" "$RESULTS/screenshots"
tls_browser_env # E2E_HOST_MAP, and the local CA trusted by Chromium and Node
(cd web && E2E_CLUSTER=1 E2E_BASE_URL="$INGRESS_URL" \
  E2E_SCREENSHOT_DIR="$RESULTS/screenshots" npx playwright test --project cluster --output "$RESULTS/playwright") \
  2>&1 | tee "$RESULTS/playwright.log" | sed 's/^/  /'
if [ "${PIPESTATUS[0]}" = 0 ]; then
  printf '  web app through the ingress: %s, screenshots in %s\n' \
    "$(grep -oE '[0-9]+ passed' "$RESULTS/playwright.log" | tail -1)" "$RESULTS/screenshots"
else
  fail "the web app through the ingress (web/e2e/cluster)"
fi

# Right after the suite, while every counter it touched is still in the pods it touched (the
# drills restart them).
log "dashboard panels: each query of deploy/observability/santa-wishlist-dashboard.json in the cluster's Prometheus"
go test -count=1 -v -tags e2e,cluster -run 'TestMonitoringDashboardPanelsHaveData' ./tests/e2e/... 2>&1 | tee "$RESULTS/panels.log" | grep -E '^(ok|FAIL|panic:)|^\s*--- (FAIL|SKIP)|_test\.go:[0-9]+:'
[ "${PIPESTATUS[0]}" = 0 ] || fail "dashboard panels"

# Before the autoscaling drill, whose scale-in may stop the stream's pod.
held_stream_check
log "autoscaling: KEDA's ScaledObjects and the HPAs it made read their metrics"
# KEDA's HPAs: CPU from metrics-server (every 15 s), open streams and request rates from
# Prometheus through KEDA's external metrics API. Each HPA should be reading all of them within
# a minute or two.
# hpa_reads: how many of its metrics the HPA has a current value for; hpa_wants: how many it has.
hpa_reads() {
  kubectl -n "$NS" get hpa "$1" -o jsonpath='{range .status.currentMetrics[*]}{.type}={.resource.current.averageUtilization}{.external.current.averageValue}{"\n"}{end}' | grep -c '=.'
}
hpa_wants() { kubectl -n "$NS" get hpa "$1" -o jsonpath='{range .spec.metrics[*]}{.type}{"\n"}{end}' | grep -c .; }
kubectl -n "$NS" get scaledobject | sed 's/^/  /'
for svc in gateway notification; do
  for _ in $(seq 150); do [ "$(hpa_reads $svc)" -gt 0 ] && [ "$(hpa_reads $svc)" = "$(hpa_wants $svc)" ] && break; sleep 1; done
  kubectl -n "$NS" get hpa "$svc" -o jsonpath='{range .status.currentMetrics[*]}  '"$svc"': {.type} {.resource.name}{.external.metric.name} {.resource.current.averageUtilization}{.external.current.averageValue}{"\n"}{end}'
  if [ "$(hpa_reads $svc)" != "$(hpa_wants $svc)" ] || [ "$(hpa_wants $svc)" -lt 2 ]; then
    fail "$svc's HPA reads $(hpa_reads $svc) of its $(hpa_wants $svc) metrics (KEDA's external metrics, CPU)"
    kubectl -n "$NS" describe hpa "$svc" | tail -20
    kubectl -n keda logs deployment/keda-operator --tail 20 | sed 's/^/  keda: /'
  fi
  [ "$(kubectl -n "$NS" get hpa "$svc" -o jsonpath='{.status.conditions[?(@.type=="ScalingActive")].status}')" = True ] ||
    fail "$svc's HPA is not active"
done

log "autoscaling: load (vegeta) until KEDA's HPA adds gateway pods, then a trickle until it takes them away; open streams until it adds notification pods, then none"
go test -count=1 -v -timeout 25m -tags e2e,cluster -run 'TestAutoscaling' ./tests/e2e/... 2>&1 | tee "$RESULTS/autoscaling.log" | grep -E '^(ok|FAIL|panic:)|^\s*--- |drill:|^\s+[0-9]+s: |_test\.go:[0-9]+:'
[ "${PIPESTATUS[0]}" = 0 ] || fail "autoscaling"

log "drills"
go test -count=1 -v -timeout 20m -tags e2e,cluster -run 'TestDrill' ./tests/e2e/... 2>&1 | tee "$RESULTS/drills.log" | grep -E '^(ok|FAIL|panic:)|^\s*--- |drill:|_test\.go:[0-9]+:'
[ "${PIPESTATUS[0]}" = 0 ] || fail "drills"

log "alert drills: faults the cluster's Prometheus must report through Alertmanager (receiver on $ALERT_WEBHOOK_ADDR)"
go test -count=1 -v -timeout 25m -tags e2e,cluster -run 'TestMonitoringAlertDrills' ./tests/e2e/... 2>&1 | tee "$RESULTS/alert-drills.log" | grep -E '^(ok|FAIL|panic:)|^\s*--- |_test\.go:[0-9]+:'
[ "${PIPESTATUS[0]}" = 0 ] || fail "alert drills"

if [ "${K8S_KEEP:-}" != 1 ]; then
  log "uninstall"
  "$HELM" uninstall "$RELEASE" -n "$NS" --wait >/dev/null || fail "helm uninstall"
  kubectl delete namespace "$NS" --wait=true >/dev/null || fail "namespace delete"
  # The claims went with the namespace; the provisioner removes their volumes and folders.
  for _ in $(seq 60); do [ -z "$(kubectl get pv -o name)" ] && break; sleep 1; done
  left=$(kubectl get pv -o name | wc -l)
  [ "$left" = 0 ] || fail "$left volumes were left behind after the namespace was deleted"
  log "volumes removed with their claims: $left left"
fi
log "k8s-test took $((SECONDS - t0))s; $([ $failed = 0 ] && echo passed || echo FAILED)"
exit $failed
