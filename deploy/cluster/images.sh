#!/usr/bin/env bash
# Container images for the local cluster, built with buildah without a registry and imported
# into the cluster's containerd (no pull ever happens):
#   images.sh pause      the pod sandbox image (a tiny static Go program)
#   images.sh addons     CoreDNS and metrics-server (built by build.sh)
#   images.sh services   the six services, from the same static build as the Dockerfile
#   images.sh deps       PostgreSQL and Redis (Debian's packages in a debootstrapped rootfs),
#                        NATS, MinIO and Mailpit (static builds of their Go modules, build.sh),
#                        the Auth emulator (Node and firebase-tools on the Debian rootfs)
#   images.sh monitoring Prometheus and Alertmanager (Debian's packages in a debootstrapped
#                        rootfs of their own) with podwatch (deploy/cluster/podwatch), for
#                        deploy/cluster/monitoring.yaml
#   images.sh ingress    Traefik, the ingress controller (built by build.sh), for
#                        deploy/cluster/ingress.yaml
#   images.sh keda       KEDA's operator and metrics adapter (built by build.sh), for
#                        deploy/cluster/keda
#   images.sh cert-manager  our cert-manager controller (deploy/cluster/cert-manager, built by
#                        build.sh), for deploy/cluster/cert-manager.yaml; prints its tag
#   images.sh tag        the tag the services' images get for this tree
#   images.sh skaffold S skaffold's custom build of service S: $IMAGE, pushed to the cluster's
#                        registry (the `cluster` profile of skaffold.yaml)
# Static images are `FROM scratch` plus CA certificates, tzdata and the nonroot user (65532),
# the same files distroless/static gives the Dockerfile's images. Each image is rebuilt only
# when what it is made of changed: its key (`buildplan key`, deploy/cluster/buildplan) is kept in
# a stamp per image, and the binaries build.sh made are found in its folders (`buildplan dir`).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/versions.env"
. "$ROOT/deploy/local/pins.env"
CACHE=${K8S_CACHE:-$HOME/.cache/santa/k8s}
RUN=${K8S_RUN:-/var/lib/santa-k8s}
CTR=(ctr --address "$RUN/containerd/containerd.sock" -n k8s.io)
# buildah's own store, kept between clusters.
BUILDAH=(buildah --root "$CACHE/buildah/root" --runroot "$CACHE/buildah/run" --storage-driver vfs)
WORK=$CACHE/image-work
mkdir -p "$WORK"
log() { printf '\033[1;36m[images]\033[0m %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
. "$HERE/plan.sh" # plan: keys, stamps, the tree's tag, build.sh's folders

# in_containerd ref: the image is already imported.
in_containerd() { "${CTR[@]}" images ls -q "name==$1" 2>/dev/null | grep -qx "$1"; }

# fresh ref key: the image is in containerd, built from the same inputs (key).
fresh() { plan fresh "$1" "$2" && in_containerd "$1"; }

# assemble ref rootfs-dir user entrypoint-json [env...]: one layer from a folder, as an image
# in buildah's store.
assemble() {
  local ref=$1 dir=$2 user=$3 entry=$4; shift 4
  log "building $ref"
  local c; c=$("${BUILDAH[@]}" from scratch)
  "${BUILDAH[@]}" copy --quiet "$c" "$dir" / >/dev/null
  local envs=() e
  for e in "$@"; do envs+=(--env "$e"); done
  "${BUILDAH[@]}" config --user "$user" --entrypoint "$entry" --cmd '' "${envs[@]}" "$c"
  "${BUILDAH[@]}" commit --quiet --rm "$c" "$ref" >/dev/null
}

# commit ref key rootfs-dir user entrypoint-json [env...]: assembled, then imported into
# containerd; key names its inputs, so the next run can tell it is fresh.
commit() {
  local ref=$1 key=$2; shift 2
  assemble "$ref" "$@"
  rm -f "$WORK/image.tar"
  "${BUILDAH[@]}" push --quiet "$ref" "docker-archive:$WORK/image.tar:$ref" >/dev/null
  "${CTR[@]}" images import "$WORK/image.tar" >/dev/null
  "${BUILDAH[@]}" rmi --quiet "$ref" >/dev/null 2>&1 || true
  rm -f "$WORK/image.tar"
  plan stamp "$ref" "$key"
}

# static_root dir: what distroless/static holds: CA certificates, tzdata, passwd with nonroot.
static_root() {
  local d=$1
  rm -rf "$d"; mkdir -p "$d/etc/ssl/certs" "$d/usr/share" "$d/tmp" "$d/app"
  cp /etc/ssl/certs/ca-certificates.crt "$d/etc/ssl/certs/"
  cp -r /usr/share/zoneinfo "$d/usr/share/"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$d/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$d/etc/group"
  chmod 1777 "$d/tmp"
}

pause() {
  local d=$WORK/pause ref=santa.local/pause:1 key
  key=$(plan key pause)
  fresh $ref "$key" && return 0
  static_root "$d"
  (cd "$HERE/pause" && CGO_ENABLED=0 GOWORK=off GOFLAGS=-buildvcs=false go build -trimpath -ldflags "-s -w" -o "$d/pause" .)
  commit $ref "$key" "$d" 65532 '["/pause"]'
}

addons() {
  local name version d
  for name in coredns metrics-server local-path-provisioner; do
    version=$(plan key "$name") # the version build.sh built
    fresh "santa.local/$name:$version" "$version" && continue
    d=$WORK/$name
    static_root "$d"; cp "$(plan dir "$name")/$name" "$d/$name"
    commit "santa.local/$name:$version" "$version" "$d" 65532 "[\"/$name\"]"
  done
  # The provisioner's helper pods make and remove the volumes' folders with a shell script:
  # Debian's static busybox, each applet a link, on the same scratch base.
  dpkg -s busybox-static >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox-static >/dev/null
  version=$(plan key busybox)
  fresh santa.local/busybox:static "$version" && return 0
  d=$WORK/busybox
  static_root "$d"; mkdir -p "$d/bin"; cp /bin/busybox "$d/bin/busybox"
  for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -s busybox "$d/bin/$a"; done
  commit santa.local/busybox:static "$version" "$d" 0 '["/bin/sh"]' PATH=/bin
}

# service_root name dir: one service's image contents, as the Dockerfile's build stage (flags
# and tags) and runtime stage make them, and the image's environment in dir.env.
service_root() {
  local s=$1 d=$2
  static_root "$d"
  (cd "$ROOT" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -ldflags="-s -w" \
    -tags "disable_grpc_modules nomsgpack" -o "$d/app/service" "./services/$s/cmd/$s")
  echo GODEBUG=memprofilerate=0,adaptivestackstart=0 > "$d.env"
  if [ "$s" = gateway ]; then
    [ -f "$ROOT/web/dist/index.html" ] || (cd "$ROOT/web" && npm run build >/dev/null)
    cp -r "$ROOT/web/dist" "$d/app/web"
    echo WEB_DIR=/app/web >> "$d.env"
  fi
}

# skaffold's custom build step for one service (the `cluster` profile of skaffold.yaml): the
# image skaffold names in $IMAGE, pushed to the cluster's registry, which the node pulls from.
skaffold_build() {
  local s=${1:?service} d env
  : "${IMAGE:?set by skaffold}"
  d=$WORK/skaffold-$s
  service_root "$s" "$d"
  mapfile -t env < "$d.env"
  assemble "$IMAGE" "$d" 65532 '["/app/service"]' "${env[@]}"
  if [ "${PUSH_IMAGE:-false}" != true ]; then
    die "skaffold must push to the cluster's registry here (build.local.push: true)"
  fi
  "${BUILDAH[@]}" push --quiet --tls-verify=false "$IMAGE" "docker://$IMAGE" >/dev/null
  "${BUILDAH[@]}" rmi --quiet "$IMAGE" >/dev/null 2>&1 || true
}

# The services, imported into containerd under the tree's tag.
services() {
  local tag s d env; tag=$(plan tag)
  for s in gateway wishlist vision media notification family; do
    fresh "docker.io/santa-wishlist/$s:$tag" "$tag" && continue
    d=$WORK/svc-$s
    service_root "$s" "$d"
    mapfile -t env < "$d.env"
    commit "docker.io/santa-wishlist/$s:$tag" "$tag" "$d" 65532 '["/app/service"]' "${env[@]}"
  done
  # The fakes of Gemini and the product databases (fakes.yaml), as the local stack runs them.
  if ! fresh "santa.local/fake-internet:$tag" "$tag"; then
    d=$WORK/fake-internet
    static_root "$d"
    for s in fakegemini fakeproducts; do
      (cd "$ROOT" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -ldflags="-s -w" -o "$d/$s" "./fakes/cmd/$s")
    done
    commit "santa.local/fake-internet:$tag" "$tag" "$d" 65532 '[]'
  fi
  echo "$tag"
}

# shellcheck source=SCRIPTDIR/images-debian.sh
. "$HERE/images-debian.sh" # debian_root, deps, monitoring_root, monitoring

# Traefik on the static base: the ingress controller of deploy/cluster/ingress.yaml.
ingress() {
  local ref=santa.local/traefik:$TRAEFIK_VERSION d=$WORK/traefik
  fresh "$ref" "$TRAEFIK_VERSION" && return 0
  static_root "$d"; cp "$(plan dir traefik)/traefik" "$d/traefik"
  commit "$ref" "$TRAEFIK_VERSION" "$d" 65532 '["/traefik"]'
}

# KEDA on the static base: its operator (/keda) and metrics adapter (/keda-adapter) in one image,
# which deploy/cluster/keda gives both of KEDA's Deployments.
keda() {
  local ref=santa.local/keda:$KEDA_VERSION d=$WORK/keda bin
  fresh "$ref" "$KEDA_VERSION" && return 0
  bin=$(plan dir keda)
  static_root "$d"; cp "$bin/keda" "$bin/keda-adapter" "$d/"
  commit "$ref" "$KEDA_VERSION" "$d" 65532 '["/keda"]'
}

# The cert-manager controller on the static base (deploy/cluster/cert-manager.yaml), tagged with
# its version: CERT_MANAGER_VERSION and a key of its folder's files, so an edited controller is a
# new image and a new rollout. Prints the tag, which cert-manager.yaml's @VERSION@ takes.
cert_manager() {
  local key d=$WORK/cert-manager ref
  key=$(plan key cert-manager)
  ref=santa.local/cert-manager-controller:$key
  if ! fresh "$ref" "$key"; then
    # An edit since the cluster's binaries were built: build.sh builds only what is missing.
    [ -x "$(plan dir cert-manager)/cert-manager-controller" ] || "$HERE/build.sh"
    static_root "$d"; cp "$(plan dir cert-manager)/cert-manager-controller" "$d/cert-manager-controller"
    commit "$ref" "$key" "$d" 65532 '["/cert-manager-controller"]'
  fi
  echo "$key"
}

case "${1:-}" in
  pause) pause ;;
  cert-manager) cert_manager ;;
  ingress) ingress ;;
  keda) keda ;;
  addons) addons ;;
  services) services ;;
  deps) deps ;;
  monitoring) monitoring ;;
  monitoring-root) monitoring_root ;;
  debian) debian_root ;;
  tag) plan tag ;;
  skaffold) skaffold_build "${2:-}" ;;
  *) sed -n '2,22p' "$0"; exit 2 ;;
esac
