#!/usr/bin/env bash
# Load test of POST /v1/validate with a 150-ply record from the TCGA corpus
# (api/bench/validate-150.json): builds the release server, starts it on a free port with
# request logging off, and runs wrk against it. Installs wrk from Debian when missing.
#
#   api/bench/loadtest.sh [seconds] [connections]
#
# The target (issue 4) on the 2-core machine: >= 25k requests/s with p99 <= 10 ms.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-20}"
connections="${2:-64}"
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get install -y wrk >/dev/null
fi
cargo build --release -p api --bin anqi-api
log="$(mktemp)"
db_dir="$(mktemp -d)"
ANQI_LOG=warn ANQI_PORT=0 DATABASE_URL="$db_dir/anqi.db" target/release/anqi-api >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$log" "$db_dir"' EXIT
for _ in $(seq 50); do
  grep -q "listening on" "$log" && break
  sleep 0.1
done
url="$(grep -o 'http://[0-9.:]*' "$log" | head -1)"
echo "server: $url (pid $pid); record: $(wc -c <api/bench/validate-150.json) bytes, 150 plies"
# The verdict must be valid, or the test measures an error path.
curl -sf -H 'Content-Type: application/json' --data-binary @api/bench/validate-150.json "$url/v1/validate" \
  | grep -q '"valid":true' || { echo "the record does not validate" >&2; exit 1; }
wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/validate.lua "$url/v1/validate"
