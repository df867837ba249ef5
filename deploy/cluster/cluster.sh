#!/usr/bin/env bash
# A single-node Kubernetes on this machine, without Docker (make cluster):
#   cluster.sh up       build what is missing (build.sh), start etcd, the control plane, an
#                       image registry on localhost:5000 (for skaffold's images), containerd,
#                       the kubelet, kube-proxy and kube-router's network policy controller,
#                       then CoreDNS, metrics-server and the storage class; reuses a cluster
#                       that is already up
#   cluster.sh down     stop everything it started (by pid) and remove what it left: the
#                       bridge, the kubelet's mounts, the pods' cgroups, the iptables chains
#                       and ipsets
#   cluster.sh env      prints `export KUBECONFIG=...` for a shell
#   cluster.sh kubectl  runs the cluster's kubectl
# Kubernetes, CoreDNS and metrics-server are built from the Go module proxy at the versions in
# versions.env; etcd, containerd, runc and the CNI plugins are Debian's. The machines this runs
# on shaped the settings: cgroup v1, and no CAP_SYS_RESOURCE (docs/kubernetes.md).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/versions.env"
CACHE=${K8S_CACHE:-$HOME/.cache/santa/k8s}
. "$HERE/plan.sh" # plan dir: the folders build.sh builds into (deploy/cluster/buildplan)
BIN=$(plan dir kubernetes)
# Everything of one cluster's life: removed by `down`. Images stay in $CACHE/containerd.
RUN=${K8S_RUN:-/var/lib/santa-k8s}
PKI=$RUN/pki LOGS=$RUN/logs PIDS=$RUN/pids
NODE=santa-node
HOST_IP=${K8S_HOST_IP:-$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p')}
HOST_IP=${HOST_IP:-$(hostname -I | awk '{print $1}')}
SERVICE_CIDR=10.96.0.0/16 POD_CIDR=10.244.0.0/16 DNS_IP=10.96.0.10
CONTAINERD_SOCK=$RUN/containerd/containerd.sock
REGISTRY=localhost:5000
export KUBECONFIG=$RUN/admin.kubeconfig
log() { printf '\033[1;36m[cluster]\033[0m %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
kubectl() { "$BIN/kubectl" "$@"; }

kubeconfig() { # file user
  cat > "$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: santa-local
  cluster: {server: "https://$HOST_IP:6443", certificate-authority: $PKI/ca.crt}
users:
- name: $2
  user: {client-certificate: $PKI/$2.crt, client-key: $PKI/$2.key}
contexts:
- name: santa-local
  context: {cluster: santa-local, user: $2}
current-context: santa-local
EOF
}

alive() { [ -f "$PIDS/$1" ] && kill -0 "$(cat "$PIDS/$1")" 2>/dev/null; }
# start name command... : in the background, its pid in $PIDS, its output in $LOGS.
start() {
  local name=$1; shift
  alive "$name" && return 0
  # Appended: a component started again keeps the log of the start before (down removes them).
  setsid "$@" >>"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$PIDS/$name"
}
raise_sysctl() { # name value
  local now; now=$(sysctl -n "$1" 2>/dev/null) || return 0
  [ "$now" -ge "$2" ] || sysctl -qw "$1=$2" >/dev/null 2>&1 || log "could not raise $1 from $now to $2"
}
wait_for() { # what seconds command...
  local what=$1 secs=$2; shift 2
  for _ in $(seq "$secs"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  die "$what did not come up in ${secs}s; see $LOGS"
}

host_setup() {
  # Pods reach each other and Services through the bridge: forwarding and bridged traffic
  # through iptables (kube-proxy's rules).
  modprobe br_netfilter 2>/dev/null || true
  modprobe overlay 2>/dev/null || true
  cat /proc/sys/net/ipv4/ip_forward > "$RUN/ip_forward.before"
  echo 1 > /proc/sys/net/ipv4/ip_forward
  [ -w /proc/sys/net/bridge/bridge-nf-call-iptables ] && echo 1 > /proc/sys/net/bridge/bridge-nf-call-iptables
  # Without a swap device the kubelet needs no swap setting; /var/lib/kubelet stays untouched.
  mkdir -p "$RUN/cni"
  cat > "$RUN/cni/10-santa.conflist" <<EOF
{"cniVersion": "0.4.0", "name": "santa", "plugins": [
  {"type": "bridge", "bridge": "santa0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.244.0.0/24"}]],
            "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$RUN/cni-ipam"}},
  {"type": "portmap", "capabilities": {"portMappings": true}},
  {"type": "loopback"}]}
EOF
}

start_etcd() {
  start etcd etcd --name santa --data-dir "$RUN/etcd" \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --quota-backend-bytes 2147483648
  wait_for etcd 30 curl -fsS http://127.0.0.1:2379/health
}

start_apiserver() {
  start kube-apiserver "$BIN/kube-apiserver" \
    --advertise-address "$HOST_IP" --bind-address 0.0.0.0 --secure-port 6443 \
    --etcd-servers http://127.0.0.1:2379 \
    --service-cluster-ip-range "$SERVICE_CIDR" --service-node-port-range 30000-32767 \
    --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --client-ca-file "$PKI/ca.crt" \
    --kubelet-client-certificate "$PKI/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP,Hostname \
    --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --authorization-mode Node,RBAC --allow-privileged=true \
    --enable-admission-plugins NodeRestriction \
    --requestheader-client-ca-file "$PKI/front-proxy-ca.crt" \
    --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --proxy-client-cert-file "$PKI/front-proxy-client.crt" --proxy-client-key-file "$PKI/front-proxy-client.key" \
    --enable-aggregator-routing=true \
    --profiling=false
  wait_for kube-apiserver 120 kubectl get --raw /readyz
}

start_controllers() {
  kubeconfig "$RUN/controller-manager.kubeconfig" controller-manager
  kubeconfig "$RUN/scheduler.kubeconfig" scheduler
  start kube-controller-manager "$BIN/kube-controller-manager" \
    --kubeconfig "$RUN/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$RUN/controller-manager.kubeconfig" \
    --authorization-kubeconfig "$RUN/controller-manager.kubeconfig" \
    --bind-address 127.0.0.1 --leader-elect=false --use-service-account-credentials \
    --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
    --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
    --service-cluster-ip-range "$SERVICE_CIDR" --cluster-cidr "$POD_CIDR" \
    --horizontal-pod-autoscaler-sync-period 15s --profiling=false
  start kube-scheduler "$BIN/kube-scheduler" \
    --kubeconfig "$RUN/scheduler.kubeconfig" \
    --authentication-kubeconfig "$RUN/scheduler.kubeconfig" \
    --authorization-kubeconfig "$RUN/scheduler.kubeconfig" \
    --bind-address 127.0.0.1 --leader-elect=false --profiling=false
}

# An image registry on the node for what skaffold builds (`make skaffold-test`): crane's, its
# blobs kept in the cache so a later cluster pulls what an earlier one pushed.
start_registry() {
  mkdir -p "$CACHE/registry"
  start registry "$(plan dir crane)/crane" registry serve --address "$REGISTRY" --disk "$CACHE/registry"
  wait_for registry 30 curl -fsS "http://$REGISTRY/v2/"
}

# shellcheck source=SCRIPTDIR/cluster-node.sh
. "$HERE/cluster-node.sh" # start_containerd, start_node, start_network_policies

# The cluster's own add-ons: CoreDNS, metrics-server and the storage class with its
# provisioner, from addons.yaml.
install_addons() {
  "$HERE/images.sh" addons
  mkdir -p "$RUN/volumes"
  sed -e "s|@DNS_IP@|$DNS_IP|g; s|@COREDNS_VERSION@|$COREDNS_VERSION|g; s|@METRICS_SERVER_VERSION@|$METRICS_SERVER_VERSION|g" \
    -e "s|@LOCAL_PATH_PROVISIONER_VERSION@|$LOCAL_PATH_PROVISIONER_VERSION|g; s|@VOLUMES_DIR@|$RUN/volumes|g" \
    "$HERE/addons.yaml" | kubectl apply --server-side -f - >/dev/null
  kubectl -n kube-system rollout status deployment/coredns --timeout 180s >/dev/null
  kubectl -n kube-system rollout status deployment/metrics-server --timeout 180s >/dev/null
  kubectl -n local-path-storage rollout status deployment/local-path-provisioner --timeout 180s >/dev/null
}

up() {
  # inotify instances are counted per user against fs.inotify.max_user_instances, 128 by
  # default. Here containerd's shims, the kubelet, the pods and skaffold dev's watcher all run
  # as root and share those 128: kind's known issues ("too many open files") advise these
  # values. Only ever raised; also when the cluster is reused.
  raise_sysctl fs.inotify.max_user_instances 512
  raise_sysctl fs.inotify.max_user_watches 524288
  # Reused only whole: a missing kube-proxy (Services without rules) is started again below.
  if alive kube-apiserver && alive kubelet && alive kube-proxy && kubectl get --raw /readyz >/dev/null 2>&1; then
    log "reusing the running cluster ($KUBECONFIG)"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "needs root (containerd, the kubelet and iptables)"
  for c in etcd containerd runc buildah ipset; do command -v $c >/dev/null || missing="${missing:-} $c"; done
  if [ -n "${missing:-}" ]; then
    log "installing from Debian:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      etcd-server containerd runc containernetworking-plugins buildah iptables ipset >/dev/null
  fi
  "$HERE/build.sh"
  local t0=$SECONDS
  mkdir -p "$LOGS" "$PIDS"
  "$HERE/pki.sh" "$PKI" "$HOST_IP" "$NODE"
  kubeconfig "$KUBECONFIG" admin
  host_setup
  start_etcd
  start_apiserver
  start_controllers
  start_registry
  start_containerd
  "$HERE/images.sh" pause
  start_node
  install_addons
  log "cluster up in $((SECONDS - t0))s: $(kubectl version -o json | sed -n 's/.*"gitVersion": "\(v[^"]*\)".*/\1/p' | tr '\n' ' ')"
}

down() {
  # Pods first, while the kubelet still runs, so their containers stop cleanly.
  local p
  for p in kube-router kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver etcd registry; do
    if alive "$p"; then kill "$(cat "$PIDS/$p")" 2>/dev/null || true; fi
  done
  # containerd's shims outlive it: stop the containers through them, then containerd.
  if alive containerd; then
    for t in $(ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
      ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks kill -s SIGKILL "$t" >/dev/null 2>&1 || true
    done
    sleep 2
    kill "$(cat "$PIDS/containerd")" 2>/dev/null || true
  fi
  pkill -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCK" 2>/dev/null || true
  for p in kube-router kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver etcd registry containerd; do
    if [ -f "$PIDS/$p" ]; then
      for _ in $(seq 20); do kill -0 "$(cat "$PIDS/$p")" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$(cat "$PIDS/$p")" 2>/dev/null || true
    fi
  done
  # What the node left behind: mounts, the bridge, cgroups, kube-proxy's and CNI's chains.
  if [ -d "$RUN" ]; then
    { grep -o " $RUN[^ ]*" /proc/mounts || true; } | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  fi
  ip link del santa0 2>/dev/null || true
  for c in /sys/fs/cgroup/*/kubepods; do
    [ -d "$c" ] && find "$c" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  "$BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
  # What kube-proxy's cleanup leaves: the kubelet's KUBE-* chains and CNI's (masquerade, host
  # ports), in every table, IPv4 and IPv6: the rules jumping to them, then the chains.
  local ipt table rule chains ch
  for ipt in iptables ip6tables; do
    for table in filter nat mangle; do
      { $ipt-save -t $table 2>/dev/null | grep -E '^-A .* -j (KUBE|CNI)-' || true; } | sed 's/^-A /-D /' |
        while read -r rule; do eval "$ipt -t $table $rule" 2>/dev/null || true; done
      chains=$($ipt-save -t $table 2>/dev/null | sed -n 's/^:\(\(KUBE\|CNI\)-[^ ]*\).*/\1/p')
      for ch in $chains; do $ipt -t $table -F "$ch" 2>/dev/null || true; done
      for ch in $chains; do $ipt -t $table -X "$ch" 2>/dev/null || true; done
    done
  done
  # kube-router's ipsets, once no rule refers to them.
  { ipset list -n 2>/dev/null | grep '^KUBE-' || true; } | while read -r set; do ipset destroy "$set" 2>/dev/null || true; done
  if [ -f "$RUN/ip_forward.before" ]; then cat "$RUN/ip_forward.before" > /proc/sys/net/ipv4/ip_forward; fi
  # The shims' sockets go under /run/containerd whatever the configuration says.
  if ! pgrep -x containerd >/dev/null; then rm -rf /run/containerd/s; rmdir /run/containerd 2>/dev/null || true; fi
  rm -rf "$RUN"
  log "cluster stopped and removed"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  env) echo "export KUBECONFIG=$KUBECONFIG PATH=$BIN:\$PATH" ;;
  kubectl) shift; kubectl "$@" ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac
