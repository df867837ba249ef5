# shellcheck shell=bash
# shellcheck disable=SC2164 # images.sh runs with set -e: a cd that fails stops it
# Part of deploy/cluster/images.sh (sourced by it, not run on its own): the images made from a
# debootstrapped Debian rootfs (`images.sh deps`: PostgreSQL, Redis, NATS, MinIO, Mailpit and
# the Auth emulator; `images.sh monitoring`: Prometheus and Alertmanager with podwatch). Its
# variables and functions (CACHE, WORK, fresh, commit, static_root, ...) are images.sh's.

# A Debian bookworm rootfs with PostgreSQL and Redis, from Debian's packages (once). The
# postgres user gets uid 999, as in the official image the chart's security context expects.
debian_root() {
  local d=$CACHE/debian-bookworm
  [ -f "$d/.done" ] && return 0
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  log "debootstrapping a Debian rootfs with PostgreSQL and Redis (once, a few minutes)"
  rm -rf "$d"
  local mirror; mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include=postgresql-15,redis-server,redis-tools,libstdc++6 \
    bookworm "$d" "${mirror:-http://deb.debian.org/debian}" >"$CACHE/debootstrap.log" 2>&1
  # uid 999 for postgres (the chart runs PostgreSQL and Redis as 999), 1000 for the emulator.
  chroot "$d" sh -c 'groupmod -g 999 postgres && usermod -u 999 -g 999 postgres;
    getent passwd 1000 >/dev/null || useradd -u 1000 -g 100 -M -d /work app;
    rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists/*'
  touch "$d/.done"
}

deps() {
  debian_root
  local deb=$CACHE/debian-bookworm d key
  local debkey; debkey=$(stat -c %Y "$deb/.done")
  # PostgreSQL: the official image's contract (POSTGRES_USER/PASSWORD/DB, PGDATA, uid 999).
  key="$debkey-$(sha1sum < "$HERE/postgres-entrypoint.sh" | cut -c1-16)"
  if ! fresh santa.local/postgres:15-bookworm "$key"; then
    d=$WORK/postgres
    rm -rf "$d"; mkdir -p "$d"
    cp -a "$deb/." "$d/"
    install -m 0755 "$HERE/postgres-entrypoint.sh" "$d/usr/local/bin/docker-entrypoint.sh"
    commit santa.local/postgres:15-bookworm "$key" "$d" 999 '["/usr/local/bin/docker-entrypoint.sh"]' \
      PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8
  fi
  # Redis: the chart passes the whole command line (redis-server ...).
  fresh santa.local/redis:7-bookworm "$debkey" || commit santa.local/redis:7-bookworm "$debkey" "$deb" 999 '[]'
  # NATS, MinIO and Mailpit: the same Go builds as the local stack's.
  local name pin path
  for name in nats minio mailpit; do
    case $name in
      nats) pin=$NATS_PIN path=/nats-server src=$CACHE/nats-server-$NATS_PIN/nats-server ;;
      minio) pin=$MINIO_PIN path=/usr/bin/minio src=$CACHE/minio-$MINIO_PIN/minio ;;
      mailpit) pin=$MAILPIT_PIN path=/mailpit src=$CACHE/mailpit-$MAILPIT_PIN/mailpit ;;
    esac
    key="$pin-$(sha1sum < "$src" | cut -c1-16)"
    fresh "santa.local/$name:$pin" "$key" && continue
    d=$WORK/$name; static_root "$d"; mkdir -p "$d$(dirname $path)"
    cp "$src" "$d$path"
    commit "santa.local/$name:$pin" "$key" "$d" 65532 "[\"$path\"]"
  done
  # The Auth emulator: plain Node (this machine's) and the stack's firebase-tools.
  key="$debkey-$FIREBASE_TOOLS_PIN-$(node --version)"
  if ! fresh "santa.local/firebase-auth-emulator:$FIREBASE_TOOLS_PIN" "$key"; then
    d=$WORK/auth-emulator
    rm -rf "$d"; mkdir -p "$d"
    cp -a "$deb/." "$d/"
    mkdir -p "$d/usr/local/bin" "$d/opt" "$d/work"
    cp "$(readlink -f "$(command -v node)")" "$d/usr/local/bin/node"
    cp -a "$HOME/.cache/santa/firebase" "$d/opt/firebase-tools"
    ln -sf /opt/firebase-tools/node_modules/.bin/firebase "$d/usr/local/bin/firebase"
    commit "santa.local/firebase-auth-emulator:$FIREBASE_TOOLS_PIN" "$key" "$d" 1000 '["/usr/local/bin/firebase"]' \
      HOME=/work NO_UPDATE_NOTIFIER=1 PATH=/usr/local/bin:/usr/bin:/bin
  fi
}

# A Debian bookworm rootfs with Debian's Prometheus (2.42, with its classic UI, console
# libraries and promtool) and Alertmanager (0.25), the same packages deploy/observability's
# scripts install on this machine (once). Its own rootfs: the PostgreSQL one stays small.
monitoring_root() {
  local d=$CACHE/debian-bookworm-prometheus
  [ -f "$d/.done" ] && return 0
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  log "debootstrapping a Debian rootfs with Prometheus and Alertmanager (once, a few minutes)"
  rm -rf "$d"
  local mirror; mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include=prometheus,prometheus-alertmanager \
    bookworm "$d" "${mirror:-http://deb.debian.org/debian}" >"$CACHE/debootstrap-prometheus.log" 2>&1
  # Less to copy into every image: the time zone data of moment-timezone's separate files (the
  # UI loads the bundled one), translations and manual pages.
  chroot "$d" sh -c 'rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists/* \
    /usr/share/javascript/moment-timezone/data /usr/share/locale/* /usr/share/man/*'
  touch "$d/.done"
}

# Prometheus and Alertmanager in one image (monitoring.yaml runs each in its own pod), run as
# nobody (65534), plus podwatch: Debian's Prometheus has no Kubernetes service discovery and
# kube-state-metrics is not served by the Go module proxy; podwatch serves the pod role's
# targets (http_sd) and the restart counter, the one kube-state-metrics series the rules use.
monitoring() {
  monitoring_root
  local deb=$CACHE/debian-bookworm-prometheus d key ref=santa.local/prometheus:2.42-bookworm
  key="$(stat -c %Y "$deb/.done")-$(cat "$HERE"/podwatch/* | sha1sum | cut -c1-16)"
  fresh $ref "$key" && return 0
  d=$WORK/prometheus
  rm -rf "$d"; mkdir -p "$d"
  cp -a "$deb/." "$d/"
  (cd "$HERE/podwatch" && CGO_ENABLED=0 GOWORK=off GOFLAGS=-buildvcs=false go build -trimpath -ldflags "-s -w" -o "$d/usr/local/bin/podwatch" .)
  commit $ref "$key" "$d" 65534 '["/usr/bin/prometheus"]' PATH=/usr/local/bin:/usr/bin:/bin
}
