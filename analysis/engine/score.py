#!/usr/bin/env python3
"""The score of one bot over `anqi simulate` records: its share of each game (two seats: 1 a
win, ½ a draw; three seats: the seats it placed above, plus half those it tied, over two),
with the score's 95% interval (normal, per-game variance), wins / draws / losses (three
seats: first places / ties / the rest) and how the games ended. When every deal was played in
each seat order (the same `seed` in the records' metadata), also the score paired by deal:
the interval from the variance of each deal's mean, which a deal's luck does not widen.

    python3 analysis/engine/score.py engine:10 a.jsonl b.jsonl
"""

import collections
import json
import math
import sys


def share(outcome, seat, seats):
    """The seat's share of a game by the outcome code (`player1`, `draw`, `player2>player1=player3`)."""
    if outcome in ("draw", None, "ongoing"):
        return 0.5
    if ">" not in outcome and "=" not in outcome:
        return 1.0 if outcome == f"player{seat + 1}" else 0.0
    place = {}
    rank = 1
    for group in outcome.split(">"):
        members = group.split("=")
        for m in members:
            place[int(m.removeprefix("player")) - 1] = rank
        rank += len(members)
    mine = place[seat]
    others = [place[s] for s in range(seats) if s != seat]
    return sum(1.0 if p > mine else 0.5 if p == mine else 0.0 for p in others) / len(others)


name, files = sys.argv[1], sys.argv[2:]
points, ends = [], collections.Counter()
by_deal = collections.defaultdict(list)
three = False
for path in files:
    for line in open(path):
        record = json.loads(line)
        seat = record["players"].index(name)
        three = three or len(record["players"]) == 3
        result = record.get("result") or {}
        p = share(result.get("outcome"), seat, len(record["players"]))
        points.append(p)
        by_deal[(record.get("metadata") or {}).get("seed")].append(p)
        ends[(p, result.get("reason"))] += 1
n = len(points)
score = sum(points) / n
half = 1.96 * math.sqrt(sum((p - score) ** 2 for p in points) / n / n)
w, d = points.count(1.0), points.count(0.5)
if three:
    print(f"{name}: {score:.1%} ({score - half:.1%}-{score + half:.1%}) of {n}: first {w}, second {d}, other {n - w - d}")
else:
    print(f"{name}: {score:.1%} ({score - half:.1%}-{score + half:.1%}) of {n}: +{w} ={d} -{n - w - d}")
for (p, reason), k in sorted(ends.items(), reverse=True):
    if three:
        word = {1.0: "first", 0.75: "tied first", 0.5: "second", 0.25: "tied last"}.get(p, "last")
    else:
        word = "won" if p == 1 else "drawn" if p == 0.5 else "lost"
    print(f"  {k:5d} {word}, by {reason}" if three else f"  {k:5d} {word} by {reason}")
deals = [sum(v) / len(v) for v in by_deal.values()]
sizes = {len(v) for v in by_deal.values()}
if len(deals) > 1 and len(sizes) == 1 and sizes != {1} and None not in by_deal:
    mean = sum(deals) / len(deals)
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in deals) / (len(deals) - 1) / len(deals))
    print(f"  paired by deal: {mean:.1%} ({mean - half:.1%}-{mean + half:.1%}) of {len(deals)} deals, each in {sizes.pop()} seat orders")
