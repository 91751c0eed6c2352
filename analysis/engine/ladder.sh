#!/usr/bin/env bash
# The Banqi ladder of docs/engine.md: each pairing plays the same deals twice, colours swapped,
# and the first bot's score is printed. Builds the release tool first.
#
#   analysis/engine/ladder.sh [deals] [seed] ["A B" pairs…]
set -euo pipefail
cd "$(dirname "$0")/../.."
deals="${1:-500}"
seed="${2:-2026}"
shift $(($# < 2 ? $# : 2))
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=("greedy random" "search greedy" "search random" "engine:10 random"
  "engine:10 greedy" "engine:10 search" "engine:10 misty:10")
cargo build --release -p analysis --bin anqi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for pair in "${pairs[@]}"; do
  set -- $pair
  target/release/anqi simulate --games "$deals" --seed "$seed" --bot "$1,$2" -o "$work/a.jsonl" 2>/dev/null
  target/release/anqi simulate --games "$deals" --seed "$seed" --bot "$2,$1" -o "$work/b.jsonl" 2>/dev/null
  echo "== $1 vs $2 ($deals deals, both colours)"
  python3 analysis/engine/score.py "$1" "$work/a.jsonl" "$work/b.jsonl"
done
