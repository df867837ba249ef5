#!/usr/bin/env bash
# Builds the Kubernetes components of the local cluster from the Go module proxy, once per
# version: kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and
# kubectl from k8s.io/kubernetes, CoreDNS and metrics-server from their own modules, skaffold,
# crane (its `registry serve` is the cluster's registry for skaffold's images), kube-router
# (its network policy controller enforces the NetworkPolicies), local-path-provisioner (the
# storage class's volumes), Traefik (the ingress controller, deploy/cluster/ingress.yaml) and
# KEDA (the autoscaler reading Prometheus, deploy/cluster/keda.yaml).
# Binaries land in ~/.cache/santa/k8s/<component>-<version>/ and are reused after that.
# (`go install k8s.io/kubernetes/cmd/...@v` is refused because kubernetes' go.mod has replace
# directives, so a throwaway module requires it and points each staging module at its release.)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/versions.env"
. "$HERE/../local/pins.env"
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

kube_bin=$CACHE/kubernetes-$K8S_VERSION
build_kubernetes() {
  local cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
  local missing=0 c
  for c in "${cmds[@]}"; do [ -x "$kube_bin/$c" ] || missing=1; done
  [ $missing = 1 ] || return 0
  log "building Kubernetes $K8S_VERSION from the Go module proxy (about 40 min on two cores, once)"
  local src=$CACHE/src/kubernetes-$K8S_VERSION
  mkdir -p "$src" "$kube_bin.tmp"
  (
    cd "$src"
    gomod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
    {
      echo "module santa.local/k8sbuild"
      echo "go 1.24.0"
      echo "require k8s.io/kubernetes $K8S_VERSION"
      # kubernetes' own `k8s.io/x => ./staging/src/k8s.io/x` lines, pointed at the releases.
      grep -E '=> \./staging/' "$gomod" | awk -v v="$K8S_STAGING_VERSION" '{print "replace " $1 " => " $1 " " v}'
    } > go.mod
    printf 'package tools\nimport (\n' > tools.go
    for c in "${cmds[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$c" >> tools.go; done
    printf ')\n' >> tools.go
    sed -i '1i //go:build tools' tools.go
    GOFLAGS=-mod=mod go mod tidy
    major=${K8S_VERSION#v}; major=${major%%.*}
    minor=${K8S_VERSION#v*.}; minor=${minor%%.*}
    ld=""
    for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ld="$ld -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=$major -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
    done
    pkgs=(); for c in "${cmds[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$c"); done
    # One go build for all six: the packages they share compile once.
    CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w $ld" -o "$kube_bin.tmp/" "${pkgs[@]}"
  )
  rm -rf "$kube_bin"; mv "$kube_bin.tmp" "$kube_bin"
}

# A module installed with go install at a pinned version, into its own cached folder. A static
# copy the local stack already built (~/.cache/santa/bin) is taken instead of building again.
go_install() { # name module version
  local dir=$CACHE/$1-$3 stack=$HOME/.cache/santa/bin/$1
  [ -x "$dir/$1" ] && return 0
  if [ "${4:-}" = stack ] && [ -x "$stack" ] && ! ldd "$stack" >/dev/null 2>&1; then
    mkdir -p "$dir" && cp "$stack" "$dir/$1" && return 0
  fi
  log "building $1 $3 from the Go module proxy (once)"
  mkdir -p "$dir.tmp"
  (cd /tmp && CGO_ENABLED=0 GOBIN="$dir.tmp" GOFLAGS=-buildvcs=false go install -trimpath -ldflags "-s -w" "$2@$3")
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

# skaffold, likewise from a throwaway module: `go install .../cmd/skaffold@v` is refused (the
# proxy answers 403, not 404, for the module path it tries first), and skaffold's go.mod has
# replace and exclude directives that only count in a main module.
build_skaffold() {
  local dir=$CACHE/skaffold-$SKAFFOLD_VERSION
  [ -x "$dir/skaffold" ] && return 0
  log "building skaffold $SKAFFOLD_VERSION from the Go module proxy (once)"
  local src=$CACHE/src/skaffold-$SKAFFOLD_VERSION mod=github.com/GoogleContainerTools/skaffold/v2
  mkdir -p "$src" "$dir.tmp"
  (
    cd "$src"
    gomod=$(go mod download -json "$mod@$SKAFFOLD_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
    {
      echo "module santa.local/skaffoldbuild"
      echo "go 1.24.1"
      echo "require $mod $SKAFFOLD_VERSION"
      grep -E '^(replace|exclude) ' "$gomod"
    } > go.mod
    printf '//go:build tools\npackage tools\nimport _ "%s/cmd/skaffold"\n' "$mod" > tools.go
    GOFLAGS=-mod=mod go mod tidy
    CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-s -w -X $mod/pkg/skaffold/version.version=$SKAFFOLD_VERSION" -o "$dir.tmp/skaffold" "$mod/cmd/skaffold"
  )
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

# module_copy module version dir: a writable copy of a module from the Go module proxy in dir,
# to build inside: `go install` refuses a module with replace lines, and a throwaway module that
# requires it would ignore them.
module_copy() {
  local moddir
  moddir=$(cd /tmp && go mod download -json "$1@$2" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
  [ -n "$moddir" ] || { log "go mod download $1@$2 failed"; return 1; }
  rm -rf "$3"; mkdir -p "$3"
  cp -r "$moddir/." "$3/"; chmod -R u+w "$3"
}

# Traefik, the ingress controller (ingress.yaml): built inside a copy of its own module, since
# its go.mod has replace lines (module_copy). About 20 min cold on two cores. Its web UI stays the module's
# placeholder (the dashboard needs a yarn build); routing does not use it.
build_traefik() {
  local dir=$CACHE/traefik-$TRAEFIK_VERSION
  [ -x "$dir/traefik" ] && return 0
  log "building Traefik $TRAEFIK_VERSION from the Go module proxy (about 20 min on two cores, once)"
  local src=$CACHE/src/traefik-$TRAEFIK_VERSION mod=github.com/traefik/traefik/v3
  module_copy "$mod" "$TRAEFIK_VERSION" "$src" || return 1
  mkdir -p "$dir.tmp"
  (cd "$src" && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath \
    -ldflags "-s -w -X $mod/pkg/version.Version=$TRAEFIK_VERSION" -o "$dir.tmp/traefik" ./cmd/traefik)
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

# KEDA (keda.yaml): its operator and its metrics adapter, which serves the external metrics API
# the HPAs it makes read. Built like Traefik, inside a copy of its module (replace lines). The
# admission webhooks are left out: they only validate ScaledObjects, and the chart's are tested.
build_keda() {
  local dir=$CACHE/keda-$KEDA_VERSION
  [ -x "$dir/keda" ] && [ -x "$dir/keda-adapter" ] && return 0
  log "building KEDA $KEDA_VERSION from the Go module proxy (about 20 min on two cores, once)"
  local src=$CACHE/src/keda-$KEDA_VERSION mod=github.com/kedacore/keda/v2 c
  module_copy "$mod" "$KEDA_VERSION" "$src" || return 1
  mkdir -p "$dir.tmp"
  for c in operator:keda adapter:keda-adapter; do
    (cd "$src" && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-s -w -X $mod/version.Version=$KEDA_VERSION" -o "$dir.tmp/${c#*:}" "./cmd/${c%%:*}")
  done
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

build_kubernetes
build_skaffold
build_traefik
build_keda
# crane's registry: where skaffold's `cluster` profile pushes and the node pulls from.
go_install crane github.com/google/go-containerregistry/cmd/crane "$CRANE_VERSION"
go_install coredns github.com/coredns/coredns "$COREDNS_VERSION"
go_install metrics-server sigs.k8s.io/metrics-server/cmd/metrics-server "$METRICS_SERVER_VERSION"
go_install kube-router github.com/cloudnativelabs/kube-router/v2/cmd/kube-router "$KUBE_ROUTER_VERSION"
go_install local-path-provisioner github.com/rancher/local-path-provisioner "$LOCAL_PATH_PROVISIONER_VERSION"
# The in-cluster NATS image, at the local stack's version (this machine's own may differ).
go_install nats-server github.com/nats-io/nats-server/v2 "$NATS_PIN"
# Static builds for the images (the local stack's copies in ~/.cache/santa/bin link libc).
go_install minio github.com/minio/minio "$MINIO_PIN" stack
go_install mailpit github.com/axllent/mailpit "$MAILPIT_PIN" stack
log "binaries in $CACHE"
