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
source api/bench/common.sh
need_wrk
log="$(mktemp)"
db_dir="$(mktemp -d)"
start_server "$log" DATABASE_URL="$db_dir/anqi.db"
trap 'kill $pid 2>/dev/null || true; rm -rf "$log" "$db_dir"' EXIT
echo "server: $url (pid $pid); record: $(wc -c <api/bench/validate-150.json) bytes, 150 plies"
# The verdict must be valid, or the test measures an error path.
curl -sf -H 'Content-Type: application/json' --data-binary @api/bench/validate-150.json "$url/v1/validate" \
  | grep -q '"valid":true' || { echo "the record does not validate" >&2; exit 1; }
wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/validate.lua "$url/v1/validate"
