#!/usr/bin/env bash
# Installs (from Debian's packages, when missing) and starts a PostgreSQL server for the
# record store's tests, and prints the URL the tests use. Needs root (or sudo).
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if ! command -v pg_ctlcluster >/dev/null || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "installing postgresql (Debian package)…" >&2
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >&2
fi
version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h | grep -q "^$version main"; then
  $sudo_cmd pg_createcluster "$version" main >&2
fi
pg_lsclusters -h | grep -q "^$version main .* online" || $sudo_cmd pg_ctlcluster "$version" main start >&2
for _ in $(seq 50); do
  $sudo_cmd -u postgres psql -qAtc "select 1" >/dev/null 2>&1 && break || true
  [ -z "$sudo_cmd" ] && su postgres -c 'psql -qAtc "select 1"' >/dev/null 2>&1 && break
  sleep 0.2
done
run_psql() {
  if [ -n "$sudo_cmd" ]; then sudo -u postgres psql -qAt "$@"; else su postgres -c "psql -qAt $(printf '%q ' "$@")"; fi
}
if [ "$(run_psql -c "select 1 from pg_roles where rolname = 'anqi'")" != "1" ]; then
  run_psql -c "create role anqi login createdb password 'anqi'" >&2
fi
echo "postgres://anqi:anqi@127.0.0.1:$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')/postgres"
