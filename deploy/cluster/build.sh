#!/usr/bin/env bash
# Builds the Kubernetes components of the local cluster from the Go module proxy, once per
# version: kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and
# kubectl from k8s.io/kubernetes, CoreDNS and metrics-server from their own modules, skaffold,
# crane (its `registry serve` is the cluster's registry for skaffold's images), kube-router
# (its network policy controller enforces the NetworkPolicies), local-path-provisioner (the
# storage class's volumes), Traefik (the ingress controller, deploy/cluster/ingress.yaml) and
# KEDA (the autoscaler reading Prometheus, deploy/cluster/keda.yaml).
# Binaries land in ~/.cache/santa/k8s/<component>-<version>/ and are reused after that.
# What to build, at which version (versions.env, ../local/pins.env), in which folder, whether
# it is built already and with which commands is decided in deploy/cluster/buildplan
# (`buildplan status` and `buildplan steps` print it); this script only runs its steps.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${K8S_CACHE:-$HOME/.cache/santa/k8s}
log() { printf '\033[1;36m[cluster]\033[0m %s\n' "$*" >&2; }

# One build at a time: make test starts this in the background, and a build started by hand (or
# by another checkout) may still be running; two would write the same directories. The second
# waits for the first, then finds its binaries cached.
mkdir -p "$CACHE"
exec 9>"$CACHE/.build.lock"
if ! flock -n 9; then
  log "another build of the cluster's binaries is running; waiting for it"
  flock 9
fi

. "$HERE/plan.sh"
# The commands that build what is missing, one a line (none when the cache is warm).
steps=$(plan steps)
eval "$steps"
log "binaries in $CACHE"
