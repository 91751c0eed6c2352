"""The independent check of Anqi's rating fit (analysis/tests/ratings.rs): choix's maximum a
posteriori estimates of the same models on the same games.

Reads JSON on standard input: {"model": "pairwise" | "rankings", "players": n, "alpha": a,
"data": [[winner, loser], ...] or [[first, second, third], ...]}; prints the n strengths
(natural log units) as a JSON list. choix minimises the negative log-likelihood plus
alpha * sum(params ** 2): Anqi's objective, with the seat terms left out.
"""

import json
import sys

import choix


def main():
    order = json.load(sys.stdin)
    n, alpha, data = order["players"], order["alpha"], [tuple(d) for d in order["data"]]
    if order["model"] == "pairwise":
        params = choix.opt_pairwise(n, data, alpha=alpha, method="Newton-CG", tol=1e-10)
    else:
        params = choix.opt_rankings(n, data, alpha=alpha, method="Newton-CG", tol=1e-10)
    json.dump([float(p) for p in params], sys.stdout)


if __name__ == "__main__":
    main()
