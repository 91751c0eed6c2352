#!/usr/bin/env bash
# Soak test: the release server under a mix of every kind of request (validate, actions, play,
# view, render, store reads and writes, several games) for a while, its memory (RSS) sampled
# every 10 s. Installs wrk from Debian when missing.
#
#   api/bench/soak.sh [seconds] [connections]      (default 600 s, 32 connections)
#
# ANQI_SOAK_WRITES=0 leaves the store writes out of the mix.
# ANQI_API_BIN=<path> soaks that binary instead of building target/release/anqi-api (to
# compare two builds side by side).
#
# Prints the RSS table, wrk's latency distribution and its error counts: a sound run has no
# socket errors and no non-2xx responses, and an RSS that levels off.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-600}"
connections="${2:-32}"
source api/bench/common.sh
need_wrk
log="$(mktemp)"
db_dir="$(mktemp -d)"
export ANQI_SOAK_TOKEN="soak-$(head -c 12 /dev/urandom | base64 | tr -dc a-zA-Z0-9)"
start_server "$log" ANQI_TOKEN="$ANQI_SOAK_TOKEN" DATABASE_URL="$db_dir/anqi.db"
trap 'kill $pid 2>/dev/null || true; rm -rf "$log" "$db_dir"' EXIT
echo "server: $url (pid $pid), $duration s, $connections connections"
(
  for t in $(seq 0 10 "$duration"); do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    printf "%5d s  RSS %7d KB\n" "$t" "$rss"
    sleep 10
  done
) &
sampler=$!
wrk -t2 -c"$connections" -d"${duration}s" --latency -s api/bench/soak.lua "$url"
wait "$sampler" 2>/dev/null || true
echo "stored games: $(curl -s "$url/v1/games?limit=1" >/dev/null && echo ok)"
grep -c ' 5[0-9][0-9] ' "$log" | sed 's/^/5xx log lines: /' || true
