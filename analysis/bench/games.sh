#!/usr/bin/env bash
# The batch tool on a large log: games per second and peak memory of validate, import (SQLite,
# and PostgreSQL when a URL is given), score and report, on GAMES simulated Banqi games (random
# bots, seed 1, ~2.3 KB and ~260 plies a game); then, with REPEAT > 1, validate and import again
# on a log made by repeating that one REPEAT times (the memory stays that of one batch).
#
#   analysis/bench/games.sh [games] [postgres://…/db] [repeat] [batch]
#
# BATCH (default: the tool's own, 10,000) is `anqi import --batch`: games per transaction.
# Needs GNU time (/usr/bin/time). The log is simulated once and kept in $ANQI_BENCH_DIR
# (target/bench-games by default); the databases are made afresh each run. The targets (issue
# 22, two cores): validate >= 60k games/s, import >= 50k games/s into SQLite and >= 30k into
# PostgreSQL, peak memory <= 300 MB for every command whatever the input size.
set -euo pipefail
cd "$(dirname "$0")/../.."
games="${1:-1000000}"
postgres="${2:-}"
repeat="${3:-1}"
batch=(); [ -n "${4:-}" ] && batch=(--batch "$4")
dir="${ANQI_BENCH_DIR:-target/bench-games}"
mkdir -p "$dir"
cargo build --release -p analysis --bin anqi
anqi="$PWD/target/release/anqi"
log="$dir/banqi-$games.jsonl"
[ -s "$log" ] || "$anqi" simulate --games "$games" --seed 1 --output "$log"
echo "| command | input | games | time | games/s | peak memory |"
echo "|---|---|---|---|---|---|"
run() { # label input count command…
  local label="$1" input="$2" count="$3"; shift 3
  /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>&1 || true
  read -r seconds kb <"$dir/time"
  awk -v l="$label" -v i="$input" -v n="$count" -v s="$seconds" -v k="$kb" 'BEGIN {
    printf "| %s | %s | %d | %.1f s | %.1fk | %d MB |\n", l, i, n, s, n / s / 1000, k / 1024 }'
}
size="$(du -h "$log" | cut -f1)"
run "anqi validate --quiet" "$size" "$games" "$anqi" validate --quiet "$log"
rm -f "$dir/anqi.db" "$dir/anqi.db-wal" "$dir/anqi.db-shm"
run "anqi import (SQLite, new)" "$size" "$games" "$anqi" import "$log" --database "$dir/anqi.db" "${batch[@]}"
run "anqi import (SQLite, all stored)" "$size" "$games" "$anqi" import "$log" --database "$dir/anqi.db" "${batch[@]}"
if [ -n "$postgres" ]; then
  psql "$postgres" -qc "DROP TABLE IF EXISTS ledger_actions, ledger, seats, games, __diesel_schema_migrations CASCADE" 2>/dev/null
  run "anqi import (PostgreSQL, new)" "$size" "$games" "$anqi" import "$log" --database "$postgres" "${batch[@]}"
  run "anqi import (PostgreSQL, all stored)" "$size" "$games" "$anqi" import "$log" --database "$postgres" "${batch[@]}"
fi
run "anqi score" "$size" "$games" "$anqi" score "$log"
rm -rf "$dir/report"
run "anqi report" "$size" "$games" "$anqi" report "$log" --output "$dir/report"
if [ "$repeat" -gt 1 ]; then
  big="$dir/banqi-$games-x$repeat.jsonl"
  [ -s "$big" ] || for _ in $(seq "$repeat"); do cat "$log"; done >"$big"
  bigsize="$(du -h "$big" | cut -f1)"
  total=$((games * repeat))
  run "anqi validate --quiet" "$bigsize" "$total" "$anqi" validate --quiet "$big"
  run "anqi import (SQLite, all stored)" "$bigsize" "$total" "$anqi" import "$big" --database "$dir/anqi.db" "${batch[@]}"
fi
