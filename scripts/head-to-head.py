#!/usr/bin/env python3
"""Two builds of the computer opponent, head to head, over the engine protocol.

    scripts/head-to-head.py NEW OLD SCENARIO FIRST LAST BUDGET [PARALLEL]

NEW and OLD are `grognard` binaries (two builds of the project: a change and the code
before it). For each seed from FIRST to LAST, two games, one in each seat order: both
binaries run `grognard engine`, load SCENARIO (a scenario file) with the seed, and the
side to act asks its own binary for `{"cmd": "ai", ...}`; the action is applied in both,
so both play the same game with the same dice. BUDGET is a number of simulations a
decision (`200`: the same answers on any machine) or `tN` for N milliseconds a decision
(`t100`: the budget of time both get; run one game at a time, PARALLEL 1, so that both
have the machine alike). PARALLEL games run at once (default 1).

Prints each game, then NEW's score by side and in all (a draw counts a half) with its
95% Wilson interval. `grognard arena` plays players of one binary; this plays two
binaries, as docs/AI.md measures a change of the search against the search before it.
"""

import json
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

CAP = 5000


class Engine:
    def __init__(self, exe):
        self.p = subprocess.Popen(
            [exe, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, request):
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        answer = json.loads(self.p.stdout.readline())
        if not answer.get("ok"):
            raise RuntimeError(f"{request} answered {answer}")
        return answer

    def close(self):
        try:
            self.ask({"cmd": "quit"})
        except (RuntimeError, OSError, ValueError):
            pass
        self.p.wait()


def budget(text):
    if text.startswith("t"):
        return {"millis": int(text[1:])}
    return {"simulations": int(text)}


def game(new, old, scenario, seed, new_first, ask):
    engines = [Engine(new), Engine(old)]
    try:
        for e in engines:
            r = e.ask({"cmd": "load", "scenario": scenario, "seed": seed})
        sides = r["sides"]
        new_side = sides[0] if new_first else sides[1]
        k = 0
        while r["outcome"] is None and k < CAP:
            side = r["to_act"]["side"]
            mover = engines[0] if side == new_side else engines[1]
            a = mover.ask({"cmd": "ai", "seed": seed * 100_000 + k} | ask)
            for e in engines:
                r = e.ask({"cmd": "apply", "action": a["action"]})
            k += 1
        outcome = r["outcome"] or {}
        winner = outcome.get("winner")
        score = 0.5 if winner is None else float(winner == new_side)
        return seed, new_side, score, k, outcome.get("reason", f"stopped at {CAP} actions")
    finally:
        for e in engines:
            e.close()


def wilson(score, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    new, old, scenario, first, last, text = sys.argv[1:7]
    parallel = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    ask = budget(text)
    jobs = [(s, f) for s in range(int(first), int(last) + 1) for f in (True, False)]
    by_side = {}
    with ThreadPoolExecutor(parallel) as pool:
        runs = pool.map(lambda j: game(new, old, scenario, j[0], j[1], ask), jobs)
        for seed, side, score, k, why in runs:
            by_side.setdefault(side, []).append(score)
            print(f"seed {seed}, NEW as {side}: {score} ({k} actions; {why})", flush=True)
    every = [x for v in by_side.values() for x in v]
    for name, v in list(by_side.items()) + [("both", every)]:
        lo, hi = wilson(sum(v), len(v))
        print(f"NEW as {name}: {sum(v)} of {len(v)} [{lo:.0%}, {hi:.0%}]")


if __name__ == "__main__":
    main()
