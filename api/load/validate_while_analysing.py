#!/usr/bin/env python3
"""Load test: `POST /v1/validate` throughput alone, then while analyses run.

Starts nothing: point it at a running service (`cargo run --release -p api`). For SECONDS it
sends validations of a 40-ply Banqi record from CLIENTS threads and counts the answers; then
the same while ANALYSTS threads keep `POST /v1/analyze` busy (each a 500 ms search of the start
position; the service runs at most `--analysis-slots` of them, and answers the rest 503 at
once). Prints requests per second for both phases, and the analyses answered and refused.

    python3 api/load/validate_while_analysing.py http://127.0.0.1:8080 [seconds] [clients] [analysts]
"""

import json
import sys
import threading
import time
import urllib.error
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 4
ANALYSTS = int(sys.argv[4]) if len(sys.argv) > 4 else 2

# A real game's first 40 plies (the TCGA corpus, tests/data).
RECORD = {
    "game": "banqi",
    "preset": "tcga",
    "actions": [
        "b8(p)", "d8(R)", "c8(n)", "d7(P)", "a8(N)", "d6(G)", "b6(r)", "c7(K)", "b7(N)", "a8-b8",
        "c5(p)", "d8-c8", "d4(r)", "d7-d8", "d3(P)", "d6-d7", "c6(M)", "d7-d6",
    ],
}


def post(path, body):
    req = urllib.request.Request(
        BASE + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req) as res:
            res.read()
            return res.status
    except urllib.error.HTTPError as e:
        e.read()
        return e.code


def hammer(path, body, stop, counts):
    while not stop.is_set():
        status = post(path, body)
        counts.append(status)


def phase(with_analyses):
    stop = threading.Event()
    validated, analysed = [], []
    threads = [
        threading.Thread(target=hammer, args=("/v1/validate", RECORD, stop, validated))
        for _ in range(CLIENTS)
    ]
    if with_analyses:
        threads += [
            threading.Thread(
                target=hammer,
                args=("/v1/analyze", {"limits": {"millis": 500}}, stop, analysed),
            )
            for _ in range(ANALYSTS)
        ]
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    stop.set()
    for t in threads:
        t.join()
    ok = sum(1 for s in validated if s == 200)
    return ok / SECONDS, analysed


alone, _ = phase(False)
busy, analysed = phase(True)
answered = sum(1 for s in analysed if s == 200)
refused = sum(1 for s in analysed if s == 503)
print(f"validate alone:            {alone:8.1f} requests/s ({CLIENTS} clients)")
print(f"validate while analysing:  {busy:8.1f} requests/s ({busy / alone * 100:.0f}% of alone)")
print(f"analyses: {answered} answered, {refused} refused busy ({ANALYSTS} clients, {SECONDS:.0f} s)")
