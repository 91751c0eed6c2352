#!/usr/bin/env python3
"""What the bots' moves took, summed over the clock lines `anqi simulate` prints at its end
(kept beside each part's records by ladder.sh): per bot, the moves, the wall time and the
choosing thread's CPU time a move, the longest move; and the CPU time of the moves' threads
against the whole process's. The two agree when no bot worked beside its moves.

    python3 analysis/engine/clocks.py part1.jsonl.clock part2.jsonl.clock
"""

import re
import sys

MOVES = re.compile(
    r"^(\S+): (\d+) moves, ([\d.]+) ms a move \(its thread's CPU ([\d.]+) ms\), the longest (\d+) ms$"
)
CPU = re.compile(r"^CPU time: the moves' threads ([\d.]+) s, the whole process ([\d.]+) s$")

bots = {}
threads = process = 0.0
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if m := MOVES.match(line):
            name, n, wall, cpu, longest = m[1], int(m[2]), float(m[3]), float(m[4]), int(m[5])
            b = bots.setdefault(name, [0, 0.0, 0.0, 0])
            b[0] += n
            b[1] += wall * n
            b[2] += cpu * n
            b[3] = max(b[3], longest)
        elif m := CPU.match(line):
            threads += float(m[1])
            process += float(m[2])
for name, (n, wall, cpu, longest) in bots.items():
    print(f"  {name}: {n} moves, {wall / n:.1f} ms a move (CPU {cpu / n:.1f} ms), the longest {longest} ms")
if process:
    print(f"  CPU: the moves' threads {threads:.0f} s of the process's {process:.0f} s ({threads / process:.1%})")
