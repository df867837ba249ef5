# shellcheck shell=bash
# shellcheck disable=SC2164 # images.sh runs with set -e: a cd that fails stops it
# Part of deploy/cluster/images.sh (sourced by it, not run on its own): the images made from a
# debootstrapped Debian rootfs (`images.sh deps`: PostgreSQL, Redis, NATS, MinIO, Mailpit and
# the Auth emulator; `images.sh monitoring`: Prometheus and Alertmanager with podwatch). Its
# variables and functions (CACHE, WORK, plan, fresh, commit, static_root, ...) are images.sh's.
# Each image's key (what it is made of) is `plan key`'s (deploy/cluster/buildplan).

# The packages of the PostgreSQL and Redis rootfs: pgBackRest (Debian's 2.45) for the backups,
# stunnel for its TLS to the in-chart MinIO and curl to make the backups' bucket
# (postgres-entrypoint.sh).
DEBIAN_PACKAGES=postgresql-15,pgbackrest,stunnel4,curl,redis-server,redis-tools,libstdc++6

# A Debian bookworm rootfs with PostgreSQL and Redis, from Debian's packages (once for each
# package list: .done holds the list, and a rootfs made from another is made anew, which gives
# .done a new time and so the images made from it new keys). The postgres user gets uid 999, as
# in the official image the chart's security context expects.
debian_root() {
  local d=$CACHE/debian-bookworm recipe
  recipe="$DEBIAN_PACKAGES $(declare -f debian_root | sha1sum | cut -c1-8)"
  [ "$(cat "$d/.done" 2>/dev/null)" = "$recipe" ] && return 0
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  log "debootstrapping a Debian rootfs with PostgreSQL and Redis (once, a few minutes)"
  rm -rf "$d"
  local mirror; mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include="$DEBIAN_PACKAGES" \
    bookworm "$d" "${mirror:-http://deb.debian.org/debian}" >"$CACHE/debootstrap.log" 2>&1
  # uid and gid 999 for postgres (the chart runs PostgreSQL and Redis as 999; initdb needs its
  # uid to have a name), 1000 for the emulator. A package may have taken 999 first (systemd's
  # journal group comes with curl's dependencies): it moves to 989. postgres's files outside its
  # home, which usermod leaves to the old uid, follow it. Any step failing stops the build.
  chroot "$d" sh -ec 'g=$(getent group 999 | cut -d: -f1); [ -z "$g" ] || [ "$g" = postgres ] || groupmod -g 989 "$g"
    u=$(getent passwd 999 | cut -d: -f1); [ -z "$u" ] || [ "$u" = postgres ] || usermod -u 989 "$u"
    old=$(id -u postgres); groupmod -g 999 postgres; usermod -u 999 -g 999 postgres
    find / -xdev -uid "$old" -exec chown -h postgres:postgres {} +
    getent passwd 1000 >/dev/null || useradd -u 1000 -g 100 -M -d /work app
    rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists/*'
  echo "$recipe" > "$d/.done"
}

deps() {
  debian_root
  local deb=$CACHE/debian-bookworm d key
  # PostgreSQL: the official image's contract (POSTGRES_USER/PASSWORD/DB, PGDATA, uid 999).
  key=$(plan key postgres)
  if ! fresh santa.local/postgres:15-bookworm "$key"; then
    d=$WORK/postgres
    rm -rf "$d"; mkdir -p "$d"
    cp -a "$deb/." "$d/"
    install -m 0755 "$HERE/postgres-entrypoint.sh" "$d/usr/local/bin/docker-entrypoint.sh"
    # pgBackRest is configured by the chart's PGBACKREST_* variables alone: Debian's sample
    # config (a repo1-path on the local disk) would otherwise apply where they say nothing. Made
    # anew, readable by all: the package's file is 0640 and owned by the postgres uid from before
    # debian_root moved postgres to 999, so PostgreSQL's user could not read it.
    rm -f "$d/etc/pgbackrest.conf"
    install -m 0644 /dev/null "$d/etc/pgbackrest.conf"
    commit santa.local/postgres:15-bookworm "$key" "$d" 999 '["/usr/local/bin/docker-entrypoint.sh"]' \
      PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8
  fi
  # Redis: the chart passes the whole command line (redis-server ...).
  key=$(plan key redis)
  fresh santa.local/redis:7-bookworm "$key" || commit santa.local/redis:7-bookworm "$key" "$deb" 999 '[]'
  # NATS, MinIO and Mailpit: the same Go builds as the local stack's.
  local name pin path
  for name in nats minio mailpit; do
    case $name in
      nats) pin=$NATS_PIN path=/nats-server src=$(plan dir nats-server)/nats-server ;;
      minio) pin=$MINIO_PIN path=/usr/bin/minio src=$(plan dir minio)/minio ;;
      mailpit) pin=$MAILPIT_PIN path=/mailpit src=$(plan dir mailpit)/mailpit ;;
    esac
    key=$(plan key "$name")
    fresh "santa.local/$name:$pin" "$key" && continue
    d=$WORK/$name; static_root "$d"; mkdir -p "$d$(dirname $path)"
    cp "$src" "$d$path"
    commit "santa.local/$name:$pin" "$key" "$d" 65532 "[\"$path\"]"
  done
  # The Auth emulator: plain Node (this machine's) and the stack's firebase-tools.
  key=$(plan key firebase-auth-emulator)
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
  key=$(plan key prometheus)
  fresh $ref "$key" && return 0
  d=$WORK/prometheus
  rm -rf "$d"; mkdir -p "$d"
  cp -a "$deb/." "$d/"
  (cd "$HERE/podwatch" && CGO_ENABLED=0 GOWORK=off GOFLAGS=-buildvcs=false go build -trimpath -ldflags "-s -w" -o "$d/usr/local/bin/podwatch" .)
  commit $ref "$key" "$d" 65534 '["/usr/bin/prometheus"]' PATH=/usr/local/bin:/usr/bin:/bin
}
