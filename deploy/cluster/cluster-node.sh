# shellcheck shell=bash
# Part of deploy/cluster/cluster.sh (sourced by it, not run on its own): the node's components,
# which `up` starts after the control plane: containerd, the kubelet, kube-proxy and
# kube-router's network policy controller, with the configuration files each reads. Its
# variables and functions (RUN, PKI, BIN, plan, start, alive, wait_for, kubeconfig, ...) are
# cluster.sh's.

start_containerd() {
  mkdir -p "$CACHE/containerd" "$RUN/containerd"
  cat > "$RUN/containerd/config.toml" <<EOF
version = 2
root = "$CACHE/containerd"
state = "$RUN/containerd/state"
[grpc]
  address = "$CONTAINERD_SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "santa.local/pause:1"
  # Without it every pod sandbox fails on this VM (runc: can't get final child's PID).
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "/usr/sbin/runc"
        Root = "$RUN/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$RUN/cni"
  # The cluster's own registry (start_registry), plain HTTP on the node.
  [plugins."io.containerd.grpc.v1.cri".registry.mirrors."$REGISTRY"]
    endpoint = ["http://$REGISTRY"]
EOF
  start containerd containerd --config "$RUN/containerd/config.toml"
  wait_for containerd 30 ctr --address "$CONTAINERD_SOCK" version
  forget_old_pods
}

# containerd's metadata lives in the cache with the images, so it outlives `down`: a new cluster
# would find the pods and containers the last one left (16 after a k8s-test), with their state
# and network namespaces gone. Its CRI plugin recovers them before it answers the kubelet, and
# the kubelet then stops or removes each. A first start after `down` twice left the node
# unregistered (stop 47's CI, and a rehearsal before it; the kubelet's log was not kept), so a
# new cluster starts with none: they are deleted (images and their layers stay), then
# containerd starts again with nothing to recover.
forget_old_pods() {
  local c=(ctr --address "$CONTAINERD_SOCK" -n k8s.io) old
  old=$("${c[@]}" containers ls -q | wc -l) || old=0
  [ "$old" -gt 0 ] || return 0
  log "removing $old containers a previous cluster left in containerd"
  "${c[@]}" tasks ls -q 2>/dev/null | xargs -r -n 50 "${c[@]}" tasks delete --force >/dev/null 2>&1 || true
  "${c[@]}" containers ls -q | xargs -r -n 50 "${c[@]}" containers delete >/dev/null 2>&1 || true
  kill "$(cat "$PIDS/containerd")"
  for _ in $(seq 40); do alive containerd || break; sleep 0.5; done
  start containerd containerd --config "$RUN/containerd/config.toml"
  wait_for containerd 30 ctr --address "$CONTAINERD_SOCK" version
  old=$("${c[@]}" containers ls -q | wc -l) || old=?
  [ "$old" = 0 ] || log "$old containers could not be removed"
}

start_node() {
  kubeconfig "$RUN/kubelet.kubeconfig" kubelet
  kubeconfig "$RUN/kube-proxy.kubeconfig" kube-proxy
  cat > "$RUN/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# This VM: cgroup v1 (hybrid), no systemd, no swap accounting.
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $PKI/kubelet-serving.crt
tlsPrivateKeyFile: $PKI/kubelet-serving.key
clusterDNS: [$DNS_IP]
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
# A developer's disk is not a production node's: do not evict pods at 85% full.
evictionHard: {memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%}
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
serializeImagePulls: false
maxPods: 110
# Containers' logs with the rest of the cluster's state, so that down removes them.
podLogsDir: $RUN/pod-logs
EOF
  local kubelet=("$BIN/kubelet" --config "$RUN/kubelet.yaml" --kubeconfig "$RUN/kubelet.kubeconfig"
    --root-dir "$RUN/kubelet" --hostname-override "$NODE" --node-ip "$HOST_IP" --v 1)
  start kubelet "${kubelet[@]}"
  # A running kube-proxy exits when its configuration file changes ("the content of the proxy
  # server's configuration file was updated"): an `up` that found the cluster half-running
  # (another component down) rewrote it and left Services without their rules. Written only
  # when kube-proxy is about to start.
  alive kube-proxy || cat > "$RUN/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $RUN/kube-proxy.kubeconfig}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE
# conntrack sysctls cannot be set here (no CAP_SYS_RESOURCE over them): leave them as they are.
conntrack: {maxPerCore: 0}
EOF
  start kube-proxy "$BIN/kube-proxy" --config "$RUN/kube-proxy.yaml"
  # 300 s: a first start after `down` once took longer than 120 s (the cause unseen: the next
  # start rewrote the kubelet's log), so what the node reports is printed before the wait ends.
  local ready="'$BIN/kubectl' get node $NODE -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -q True"
  # A kubelet that exited (as it does when the runtime does not answer at its start) is
  # started again, its last words kept in the log.
  local restarts=0
  for _ in $(seq 120); do
    bash -c "$ready" >/dev/null 2>&1 && break
    if ! alive kubelet && [ $restarts -lt 3 ]; then
      restarts=$((restarts + 1))
      log "the kubelet exited; starting it again ($restarts). Its last lines:"
      tail -3 "$LOGS/kubelet.log" | cut -c1-300 >&2
      start kubelet "${kubelet[@]}"
    fi
    sleep 1
  done
  bash -c "$ready" >/dev/null 2>&1 || { log "the node is not Ready after 120s; what it reports:"
    "$BIN/kubectl" get node "$NODE" -o jsonpath='{range .status.conditions[*]}  {.type}={.status} {.reason}: {.message}{"\n"}{end}' 2>&1 | tail -6
    alive kubelet && log "the kubelet runs; its last lines:" || log "the kubelet is not running; its last lines:"
    tail -5 "$LOGS/kubelet.log" | cut -c1-300; }
  wait_for "the node" 180 bash -c "$ready"
  # kube-router finds its node by name, so it starts once the kubelet has registered it.
  start_network_policies
}

# NetworkPolicies are enforced by kube-router's network policy controller alone (no routing,
# no service proxy: the bridge and kube-proxy do those), on the node, with iptables and ipsets.
# It lets the node itself reach every pod (the kubelet's probes, and NodePorts opened from this
# machine), as kube-router does on any cluster. Its own client certificate, read-only RBAC.
start_network_policies() {
  kubeconfig "$RUN/kube-router.kubeconfig" kube-router
  kubectl apply -f - >/dev/null <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "santa:kube-router"}
rules:
- apiGroups: [""]
  resources: [pods, namespaces, nodes, services, endpoints]
  verbs: [get, list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [get, list, watch]
- apiGroups: [networking.k8s.io]
  resources: [networkpolicies]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "santa:kube-router"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "santa:kube-router"}
subjects: [{kind: User, name: "santa:kube-router", apiGroup: rbac.authorization.k8s.io}]
EOF
  local router; router=$(plan dir kube-router)
  start kube-router "$router/kube-router" \
    --kubeconfig "$RUN/kube-router.kubeconfig" --hostname-override "$NODE" \
    --run-firewall=true --run-router=false --run-service-proxy=false --enable-cni=false \
    --service-cluster-ip-range "$SERVICE_CIDR" --service-node-port-range 30000-32767 \
    --health-port 20244 --metrics-port 0 --v 1
  wait_for kube-router 60 curl -fsS http://127.0.0.1:20244/healthz
}
