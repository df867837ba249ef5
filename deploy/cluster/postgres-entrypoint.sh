#!/bin/sh
# The entrypoint of the local cluster's PostgreSQL image (Debian's packages): the part of the
# official image's contract the chart uses. On an empty PGDATA it creates the cluster with
# POSTGRES_USER as superuser and POSTGRES_PASSWORD, and the database POSTGRES_DB; then it runs
# postgres listening on every address, password (SCRAM) required from the network.
set -eu
: "${PGDATA:?}" "${POSTGRES_USER:=postgres}" "${POSTGRES_PASSWORD:?}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
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
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
