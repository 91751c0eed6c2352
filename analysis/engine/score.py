#!/usr/bin/env python3
"""The score of one bot over `anqi simulate` records: 1 a win, ½ a draw, with the score's 95%
interval (normal, per-game variance), wins / draws / losses and how the games ended.

    python3 analysis/engine/score.py engine:10 a.jsonl b.jsonl
"""

import collections
import json
import math
import sys

name, files = sys.argv[1], sys.argv[2:]
points, ends = [], collections.Counter()
for path in files:
    for line in open(path):
        record = json.loads(line)
        seat = record["players"].index(name)
        result = record.get("result") or {}
        outcome = result.get("outcome")
        p = 0.5 if outcome in ("draw", None, "ongoing") else 1.0 if outcome == f"player{seat + 1}" else 0.0
        points.append(p)
        ends[(p, result.get("reason"))] += 1
n = len(points)
score = sum(points) / n
half = 1.96 * math.sqrt(sum((p - score) ** 2 for p in points) / n / n)
w, d = points.count(1.0), points.count(0.5)
print(f"{name}: {score:.1%} ({score - half:.1%}-{score + half:.1%}) of {n}: +{w} ={d} -{n - w - d}")
for (p, reason), k in sorted(ends.items(), reverse=True):
    print(f"  {k:5d} {'won' if p == 1 else 'drawn' if p == 0.5 else 'lost'} by {reason}")
