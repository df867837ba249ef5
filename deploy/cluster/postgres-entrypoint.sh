#!/bin/bash
# The entrypoint of the local cluster's PostgreSQL image (Debian's packages): the part of the
# official image's contract the chart uses. On an empty PGDATA it creates the cluster with
# POSTGRES_USER as superuser and POSTGRES_PASSWORD, and the database POSTGRES_DB; then it runs
# postgres listening on every address, password (SCRAM) required from the network.
#
# With SANTA_BACKUP=on (the chart's postgresql.backup.enabled) it also backs up with pgBackRest
# (configured by the PGBACKREST_* variables the chart sets: the S3 repository, the stanza):
#   - WAL archiving (archive_command archive-push, archive_timeout SANTA_ARCHIVE_TIMEOUT), so a
#     restore reaches any point up to the last archived segment;
#   - a backup every SANTA_BACKUP_INTERVAL seconds (and one at once when the repository has
#     none, or after a restore): pgBackRest reads the data directory, so it runs beside postgres;
#   - restores: on an empty PGDATA whose repository holds backups (the volume was lost), the
#     latest point, never a fresh initdb over a stanza that has data; and SANTA_RESTORE
#     ("latest", "time=<timestamp>" or "set=<backup label>") restores over the existing data
#     once (the request is recorded in PGDATA). The backup asked for is checked before anything
#     is touched: a restore from a backup that does not exist exits here, PGDATA unchanged.
#   - SANTA_S3_TLS_PROXY=host:port: pgBackRest speaks only HTTPS to S3, the in-chart MinIO plain
#     HTTP (as the services use it), so stunnel accepts TLS on 127.0.0.1:9443 and forwards to
#     MinIO. Only this pod's loopback is behind the self-signed certificate.
set -euo pipefail
: "${PGDATA:?}" "${POSTGRES_USER:=postgres}" "${POSTGRES_PASSWORD:?}" "${POSTGRES_DB:=$POSTGRES_USER}"
say() { echo "santa-entrypoint: $*" >&2; }
die() { say "FATAL: $*"; exit 1; }

init_cluster() {
  mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
  pw=$(mktemp); printf '%s' "$POSTGRES_PASSWORD" > "$pw"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pw" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
}

if [ "${SANTA_BACKUP:-off}" != on ]; then
  [ -s "$PGDATA/PG_VERSION" ] || init_cluster
  exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi

: "${PGBACKREST_STANZA:?}" "${SANTA_ARCHIVE_TIMEOUT:=60}" "${SANTA_BACKUP_INTERVAL:=86400}"
# The chart sets these too, so that a `kubectl exec ... pgbackrest` sees the same.
export PGBACKREST_PG1_PATH=${PGBACKREST_PG1_PATH:-$PGDATA} PGBACKREST_PG1_USER=${PGBACKREST_PG1_USER:-$POSTGRES_USER}
export PGBACKREST_PG1_SOCKET_PATH=${PGBACKREST_PG1_SOCKET_PATH:-/var/run/postgresql}
export PGBACKREST_LOG_PATH=${PGBACKREST_LOG_PATH:-/tmp} PGBACKREST_LOCK_PATH=${PGBACKREST_LOCK_PATH:-/tmp/pgbackrest}
export PGBACKREST_LOG_LEVEL_FILE=${PGBACKREST_LOG_LEVEL_FILE:-off}
# Not Debian's /var/spool/pgbackrest: the image's files are root's (0750), and its root is read-only.
export PGBACKREST_SPOOL_PATH=${PGBACKREST_SPOOL_PATH:-/tmp/pgbackrest-spool}

if [ -n "${SANTA_S3_TLS_PROXY:-}" ]; then
  mkdir -p /tmp/stunnel
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=localhost \
    -keyout /tmp/stunnel/key.pem -out /tmp/stunnel/cert.pem 2>/dev/null
  cat > /tmp/stunnel/stunnel.conf <<EOF
foreground = yes
pid =
[s3]
accept = 127.0.0.1:9443
connect = $SANTA_S3_TLS_PROXY
cert = /tmp/stunnel/cert.pem
key = /tmp/stunnel/key.pem
EOF
  stunnel /tmp/stunnel/stunnel.conf 2>&1 | grep -v ' LOG5\[' >&2 &
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/9443) 2>/dev/null && break; sleep 0.1; done
fi

# The in-chart MinIO starts without the backups' bucket: made here, with curl's SigV4 signing
# (a bucket that exists answers 409, which is fine). Production's bucket is made by its owner.
if [ -n "${SANTA_BACKUP_CREATE_BUCKET:-}" ]; then
  for _ in $(seq 30); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT --aws-sigv4 "aws:amz:${PGBACKREST_REPO1_S3_REGION}:s3" \
      --user "$PGBACKREST_REPO1_S3_KEY:$PGBACKREST_REPO1_S3_KEY_SECRET" "$SANTA_BACKUP_CREATE_BUCKET/$PGBACKREST_REPO1_S3_BUCKET") || true
    case $code in 200|409) break ;; esac
    say "creating bucket $PGBACKREST_REPO1_S3_BUCKET: HTTP $code, retrying"; sleep 2
  done
fi

# backups_in_repo: how many backups the repository holds for the stanza ("" when it cannot be
# read: then nothing is decided from it).
backups_in_repo() {
  local out
  out=$(pgbackrest info --output=json) || return 1
  # One object per stanza; each backup has a "label". No stanza yet: an empty backup list.
  { grep -o '"label":"[^"]*"' <<<"$out" || true; } | wc -l
}

# restore_from request: pgBackRest restore for "latest", "time=..." or "set=...", after checking
# that the repository has what is asked for.
restore_from() {
  local req=$1 args=() n
  n=$(backups_in_repo) || die "cannot read the backup repository; nothing restored, PGDATA unchanged"
  [ "$n" -gt 0 ] || die "the repository holds no backup of stanza $PGBACKREST_STANZA; nothing restored, PGDATA unchanged"
  case $req in
    latest) ;;
    time=*) args+=(--type=time "--target=${req#time=}" --target-action=promote) ;;
    set=*)
      pgbackrest info --output=json | grep -q "\"label\":\"${req#set=}\"" ||
        die "no backup set ${req#set=} in the repository (pgbackrest info lists them); nothing restored, PGDATA unchanged"
      args+=("--set=${req#set=}" --type=immediate --target-action=promote) ;;
    *) die "SANTA_RESTORE=$req: want latest, time=<timestamp> or set=<label>; nothing restored, PGDATA unchanged" ;;
  esac
  # Over existing data: only the files that differ from the backup are written.
  [ -s "$PGDATA/PG_VERSION" ] && args+=(--delta)
  say "restoring ($req) from stanza $PGBACKREST_STANZA"
  mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
  # A pod that was killed leaves postmaster.pid behind; no postgres runs here (this is PID 1 of
  # a fresh container and the volume is ReadWriteOnce), and pgBackRest refuses while it exists.
  rm -f "$PGDATA/postmaster.pid"
  pgbackrest restore "${args[@]}" || die "pgbackrest restore ($req) failed"
  echo "$req" > "$PGDATA/santa-restore.done"
  RESTORED=1
}

RESTORED=0
if [ -n "${SANTA_RESTORE:-}" ] && [ "$(cat "$PGDATA/santa-restore.done" 2>/dev/null)" != "$SANTA_RESTORE" ]; then
  restore_from "$SANTA_RESTORE"
elif [ ! -s "$PGDATA/PG_VERSION" ]; then
  n=$(backups_in_repo) || die "PGDATA is empty and the backup repository cannot be read: not making a new database over one that may have data"
  if [ "$n" -gt 0 ]; then
    say "PGDATA is empty and the repository holds $n backups: restoring the latest point"
    restore_from latest
  else
    init_cluster
  fi
fi

postgres -D "$PGDATA" -c listen_addresses='*' -c archive_mode=on -c "archive_timeout=$SANTA_ARCHIVE_TIMEOUT" \
  -c "archive_command=pgbackrest --stanza=$PGBACKREST_STANZA archive-push %p" "$@" &
pg=$!
trap 'kill -TERM $pg 2>/dev/null' TERM INT

# Beside postgres: the stanza (made once, checked on every start), a first backup when there is
# none or after a restore (the new timeline's base), then one every SANTA_BACKUP_INTERVAL.
backups() {
  until pg_isready -q -h /var/run/postgresql -U "$POSTGRES_USER" -d postgres && psql -qAt -U "$POSTGRES_USER" -d postgres -c 'select not pg_is_in_recovery()' | grep -q t; do
    kill -0 $pg 2>/dev/null || return 0; sleep 1
  done
  until pgbackrest stanza-create; do say "stanza-create failed, retrying in 10 s"; sleep 10; done
  local n; n=$(backups_in_repo || echo 0)
  if [ "$n" = 0 ] || [ $RESTORED = 1 ]; then pgbackrest backup --type=full || say "backup failed"; fi
  while sleep "$SANTA_BACKUP_INTERVAL"; do pgbackrest backup --type=full || say "backup failed"; done
}
backups &
bk=$!
set +e
wait $pg; status=$?
# The trap interrupted the first wait: postgres is still shutting down.
kill -0 $pg 2>/dev/null && { wait $pg; status=$?; }
kill $bk 2>/dev/null
exit $status
