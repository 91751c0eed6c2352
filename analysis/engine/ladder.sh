#!/usr/bin/env bash
# The ladders of docs/engine.md: each pairing "A B" plays the same deals in every seat order
# (two seats: A,B then B,A; three: A in each seat, B in the other two), and A's score is
# printed. Builds the release tool first. GAME, PRESET, MODE (Luzhanqi) and THREADS choose the
# game, its preset, its mode and the worker threads.
#
#   analysis/engine/ladder.sh [deals] [seed] ["A B" pairs…]
#   GAME=luzhanqi MODE=dark analysis/engine/ladder.sh 500 2026 "engine:10 greedy"
set -euo pipefail
cd "$(dirname "$0")/../.."
deals="${1:-500}"
seed="${2:-2026}"
shift $(($# < 2 ? $# : 2))
pairs=("$@")
game="${GAME:-banqi}"
[ ${#pairs[@]} -gt 0 ] || pairs=("greedy random" "search greedy" "search random" "engine:10 random"
  "engine:10 greedy" "engine:10 search" "engine:10 misty:10")
args=(--game "$game" --games "$deals" --seed "$seed")
[ -z "${PRESET:-}" ] || args+=(--preset "$PRESET")
[ -z "${MODE:-}" ] || args+=(--mode "$MODE")
[ -z "${THREADS:-}" ] || args+=(--threads "$THREADS")
cargo build --release -p analysis --bin anqi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for pair in "${pairs[@]}"; do
  set -- $pair
  if [ "$game" = three-kingdoms ]; then
    orders=("$1,$2,$2" "$2,$1,$2" "$2,$2,$1")
  else
    orders=("$1,$2" "$2,$1")
  fi
  files=()
  for i in "${!orders[@]}"; do
    target/release/anqi simulate "${args[@]}" --bot "${orders[$i]}" -o "$work/$i.jsonl" 2>/dev/null
    files+=("$work/$i.jsonl")
  done
  echo "== $game${MODE:+ ($MODE)}: $1 vs $2 ($deals deals, every seat)"
  python3 analysis/engine/score.py "$1" "${files[@]}"
done
