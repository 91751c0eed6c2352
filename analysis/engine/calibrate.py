#!/usr/bin/env python3
"""Fits how Banqi's centipawns become chances (records::games::banqi::engine::CALIBRATION).

Reads `anqi analyze --json` lines of finished games, each game's lines followed by its
result, and fits the model of `records::core::analysis::Score::new`:

    expected score E = 1 / (1 + exp(-cp / scale))
    draw chance    D = drawish * 2 * min(E, 1 - E)

`scale` minimises the squared error of E against the game's score for player 1 (1, ½, 0);
`drawish` the squared error of D against whether the game was drawn. Positions the engine
saw as forced are left out. Usage (docs/engine.md, "Scores"):

    anqi simulate --games 300 --seed 11 --bot engine -o self.jsonl
    python3 analysis/engine/calibrate.py self.jsonl --nodes 2000
"""

import json
import math
import subprocess
import sys
import tempfile


def main():
    records = sys.argv[1]
    nodes = sys.argv[sys.argv.index("--nodes") + 1] if "--nodes" in sys.argv else "2000"
    anqi = "anqi"
    if "--anqi" in sys.argv:
        anqi = sys.argv[sys.argv.index("--anqi") + 1]
    samples = []  # (cp for player 1, score for player 1, drawn)
    games = [json.loads(line) for line in open(records)]
    for i, record in enumerate(games):
        outcome = (record.get("result") or {}).get("outcome")
        if outcome not in ("player1", "player2", "draw"):
            continue
        score = {"player1": 1.0, "player2": 0.0, "draw": 0.5}[outcome]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(record, f)
            f.flush()
            out = subprocess.run(
                [anqi, "analyze", f.name, "--nodes", nodes, "--json"],
                capture_output=True, text=True, check=True,
            ).stdout
        for line in out.splitlines():
            s = json.loads(line)["player1"]
            if "forced_in" in s:
                continue
            samples.append((s["centipawns"], score, outcome == "draw"))
        print(f"\r{i + 1}/{len(games)} games, {len(samples)} positions", end="", file=sys.stderr)
    print(file=sys.stderr)

    def expected(cp, scale):
        return 1.0 / (1.0 + math.exp(-cp / scale))

    def error_scale(scale):
        return sum((expected(cp, scale) - s) ** 2 for cp, s, _ in samples)

    scale = min(range(20, 2001, 10), key=error_scale)

    def error_draw(k):
        return sum(
            (k * 2 * min(expected(cp, scale), 1 - expected(cp, scale)) - float(d)) ** 2
            for cp, _, d in samples
        )

    drawish = min((k / 100 for k in range(0, 101)), key=error_draw)
    drawn = sum(1 for *_, d in samples if d) / len(samples)
    print(f"{len(samples)} positions of {len(games)} games ({drawn:.1%} from drawn games)")
    print(f"scale = {scale}, drawish = {drawish:.2f}")


main()
