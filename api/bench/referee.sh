#!/usr/bin/env bash
# Load test of the referee: committed plays per second, and their latency. Builds the release
# server, starts it on a free port (its ledger in a fresh SQLite file, or the PostgreSQL
# database given), deals GAMES Banqi games, then runs wrk: every request is a play with a
# seat token that the referee judges, commits in its ledger and answers (api/bench/referee.lua).
# Installs wrk from Debian when missing.
#
#   api/bench/referee.sh [seconds] [connections] [games] [postgres://…]
#
# The goal (issue 20) on the 2-core machine: >= 5,000 committed plays/s with p99 < 20 ms on
# SQLite.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-10}"
connections="${2:-16}"
games="${3:-3000}"
database="${4:-}"
source api/bench/common.sh
need_wrk
work="$(mktemp -d)"
database="${database:-$work/anqi.db}"
ANQI_BENCH_KEEP="${ANQI_BENCH_KEEP:-}"
# A PostgreSQL ledger needs the seal keys configured (a SQLite one keeps its own beside it).
start_server "$work/log" DATABASE_URL="$database" \
  ANQI_SEAL_KEY="${ANQI_SEAL_KEY:-bench:$(head -c32 /dev/urandom | base64)}"
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
echo "server: $url (pid $pid), ledger: ${database/:*@/:***@}; dealing $games games…"
seq "$games" | xargs -P 4 -I{} curl -sf -H 'Content-Type: application/json' \
  -d '{"players":["east","west"]}' "$url/v1/deal" -o "$work/deal-{}.json"
python3 - "$work" "$games" >"$work/games.lua" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
print("games = {")
for i in range(1, n + 1):
    d = json.load(open(f"{work}/deal-{i}.json"))
    t = d["seat_tokens"]
    print(f'  {{"{d["game_id"]}", "{t["player1"]}", "{t["player2"]}"}},')
print("}")
PY
echo "dealt; $((games * 32)) plays available; wrk: ${duration}s, $connections connections"
ANQI_BENCH_GAMES="$work/games.lua" ANQI_BENCH_THREADS=2 \
  wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/referee.lua "$url/v1/play"
