#!/usr/bin/env bash
# Load test: POST /v1/validate (the 150-ply corpus record) with wrk, alone and then while
# analyses keep every analysis slot busy (clients looping POST /v1/analyze, each a 500 ms search
# of the start position; the service answers those beyond its slots 503 at once). Prints wrk's
# figures for both phases and how many analyses were answered and refused. Installs wrk from
# Debian when missing.
#
#   api/bench/analyze-load.sh [seconds] [connections] [analysis clients]
#
# One analysis client per slot (the default, 1: a 2-core machine has one slot) keeps the slots
# busy; more clients also measure the refusals, but each refused request costs a curl process
# on the same cores as the service, which the figures then include.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-15}"
connections="${2:-64}"
analysts="${3:-1}"
source api/bench/common.sh
need_wrk
log="$(mktemp)"
work="$(mktemp -d)"
start_server "$log" DATABASE_URL="$work/anqi.db"
trap 'kill $pid 2>/dev/null || true; kill $(jobs -p) 2>/dev/null || true; rm -rf "$log" "$work"' EXIT
echo "== validate alone ($duration s, $connections connections)"
wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/validate.lua "$url/v1/validate" \
  | grep -E "Requests/sec|99%|50%"
echo "== validate while $analysts clients keep the analysis slots busy"
for i in $(seq "$analysts"); do
  (
    end=$((SECONDS + duration + 2))
    while [ $SECONDS -lt $end ]; do
      curl -s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
        -d '{"limits": {"millis": 500}}' "$url/v1/analyze" >>"$work/analyses-$i"
    done
  ) &
done
sleep 1
wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/validate.lua "$url/v1/validate" \
  | grep -E "Requests/sec|99%|50%"
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
cat "$work"/analyses-* | sort | uniq -c | sed 's/^/analyses answered with status: /'
