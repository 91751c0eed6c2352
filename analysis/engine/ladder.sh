#!/usr/bin/env bash
# The ladders of docs/engine.md: each pairing "A B" plays the same deals in every seat order
# (two seats: A,B then B,A; three: A in each seat, B in the other two), and A's score is
# printed. Builds the release tool first (or plays with the build ANQI names: two builds side
# by side). GAME, PRESET, MODE (Luzhanqi) and THREADS choose the game, its preset, its mode and
# the worker threads.
#
# Long runs (1,000 games at 100 ms a move take hours): CHUNK=n plays the deals n at a time,
# the k-th part dealt from seed + k, and prints the score so far after each part; OUT=dir
# keeps every part's records there, and a run started again with the same OUT skips the parts
# already played (an interrupted run resumes). Each part's clocks (what every bot's moves took,
# `anqi simulate`'s last lines) are kept beside its records and summed at the end.
#
#   analysis/engine/ladder.sh [deals] [seed] ["A B" pairs…]
#   GAME=luzhanqi MODE=dark analysis/engine/ladder.sh 500 2026 "engine:10 greedy"
#   CHUNK=25 OUT=runs/misty analysis/engine/ladder.sh 500 3001 "engine:100 misty:100"
set -euo pipefail
cd "$(dirname "$0")/../.."
deals="${1:-500}"
seed="${2:-2026}"
shift $(($# < 2 ? $# : 2))
pairs=("$@")
game="${GAME:-banqi}"
[ ${#pairs[@]} -gt 0 ] || pairs=("greedy random" "search greedy" "search random" "engine:10 random"
  "engine:10 greedy" "engine:10 search" "engine:10 misty:10")
chunk="${CHUNK:-$deals}"
args=(--game "$game")
[ -z "${PRESET:-}" ] || args+=(--preset "$PRESET")
[ -z "${MODE:-}" ] || args+=(--mode "$MODE")
[ -z "${THREADS:-}" ] || args+=(--threads "$THREADS")
# ANQI=path plays with that build of the tool (two builds side by side, for a before/after).
anqi="${ANQI:-target/release/anqi}"
[ -n "${ANQI:-}" ] || cargo build --release -p analysis --bin anqi
if [ -n "${OUT:-}" ]; then
  work="$OUT"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
for pair in "${pairs[@]}"; do
  set -- $pair
  if [ "$game" = three-kingdoms ]; then
    orders=("$1,$2,$2" "$2,$1,$2" "$2,$2,$1")
  else
    orders=("$1,$2" "$2,$1")
  fi
  files=()
  part=0
  for ((done = 0; done < deals; done += chunk)); do
    n=$((deals - done < chunk ? deals - done : chunk))
    for i in "${!orders[@]}"; do
      file="$work/${1//:/_}-${2//:/_}.$((seed + part)).$n.$i.jsonl"
      if [ ! -s "$file" ]; then
        "$anqi" simulate "${args[@]}" --games "$n" --seed "$((seed + part))" \
          --bot "${orders[$i]}" -o "$file.part" 2>"$file.clock.part"
        mv "$file.clock.part" "$file.clock"
        mv "$file.part" "$file"
      fi
      files+=("$file")
    done
    part=$((part + 1))
    if [ "$chunk" -lt "$deals" ]; then
      echo "-- $1 vs $2: $((done + n)) of $deals deals"
      python3 analysis/engine/score.py "$1" "${files[@]}" | sed -n 1p
    fi
  done
  echo "== $game${MODE:+ ($MODE)}: $1 vs $2 ($deals deals, every seat)"
  python3 analysis/engine/score.py "$1" "${files[@]}"
  # What the moves took (anqi simulate's clocks): a time per move is fair when the bots' moves
  # took it, and the moves' threads account for the process's CPU (no work beside them).
  python3 analysis/engine/clocks.py "${files[@]/%/.clock}"
done
