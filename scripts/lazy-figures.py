#!/usr/bin/env python3
"""Figures for docs/SECURITY.md ("Only active games in memory"), measured against the
real `grognard serve` on loopback.

    cargo build --release -p grognard
    python3 scripts/lazy-figures.py target/release/grognard [--games 100000] [--touch 1000] [--actions 12]

1. Makes one game of each built-in scenario through a real server (a hotseat game,
   `--actions` legal actions played in each), stops it, then fills the file straight
   through SQL to `--games` games: copies of those five, each with its own id, log,
   line of the lobby and time of activity (spread over the last 20 days).
2. Starts the server on that file and measures the time from the start of the process
   until it answers its first request (`GET /api/games`), and its resident memory then
   (VmRSS, and the peak VmHWM, from /proc).
3. Asks for `--touch` different games one by one (each loaded from the file and cached)
   and measures the time a cold load takes and the memory each idle game holds in the
   cache; and the time of a page of the list, the first and one deep in the list.

The file is read warm (in the page cache): the fill has just written it. Not part of
the test suite: it measures, it asserts nothing.
"""

import http.client
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time


def arg(name, default):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


def start(binary, db, extra=()):
    began = time.monotonic()
    proc = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--db", db, "--create-per-minute", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in proc.stdout:
        if "serving the lobby on http://" in line:
            addr = line.strip().rsplit("http://", 1)[1]
            host, port = addr.rsplit(":", 1)
            return proc, host, int(port), began
    raise SystemExit("the server did not start")


def memory(pid):
    """VmRSS and VmHWM of a process, in MB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out["VmRSS"], out["VmHWM"]


def call(conn, method, path, body=None, token=None):
    headers = {}
    if body is not None:
        headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    res = conn.getresponse()
    return res.status, res.read(), res


def templates(binary, db, actions):
    """One hotseat game of each built-in scenario, `actions` legal actions into it."""
    proc, host, port, _ = start(binary, db)
    try:
        conn = http.client.HTTPConnection(host, port)
        _, body, _ = call(conn, "GET", "/api/scenarios")
        rng = random.Random(1)
        for s in json.loads(body):
            seats = {side["id"]: "human" for side in s["sides"]}
            status, body, _ = call(
                conn, "POST", "/api/games", {"scenario": s["id"], "seats": seats, "hotseat": True}
            )
            assert status == 201, body
            made = json.loads(body)
            token = next(iter(made["seats"].values()))["token"]
            for _ in range(actions):
                _, body, _ = call(conn, "GET", f"/api/games/{made['id']}", token=token)
                g = json.loads(body)
                if not g["actions"]:
                    break
                action = rng.choice(g["actions"])
                status, body, _ = call(
                    conn,
                    "POST",
                    f"/api/games/{made['id']}/actions",
                    {"action": action, "expect": g["n"]},
                    token,
                )
                assert status == 200, body
    finally:
        proc.terminate()
        proc.wait()


def fill(db, games):
    """Copies the games in the file until it holds `games`."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA synchronous = OFF")
    ids = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
    now = int(time.time() * 1000)
    span = 20 * 86_400_000
    began = time.monotonic()
    with conn:
        conn.execute("CREATE TEMP TABLE t AS SELECT row_number() OVER (ORDER BY id) - 1 AS j, id FROM games")
        conn.execute(
            "CREATE TEMP TABLE k AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?) "
            "SELECT c.i AS i, printf('%016x', 0x1000000 + c.i) AS id, t.id AS template, "
            "? - (c.i * ?) / ? AS active FROM c JOIN t ON t.j = c.i % ?",
            (games - len(ids), now, span, games, len(ids)),
        )
        conn.execute(
            "INSERT INTO games (id, scenario_id, ruleset, scenario, seed, seats, created, active_ms) "
            "SELECT k.id, g.scenario_id, g.ruleset, g.scenario, g.seed, g.seats, g.created, k.active "
            "FROM k JOIN games g ON g.id = k.template"
        )
        conn.execute(
            "INSERT INTO actions (game_id, n, action, forced) "
            "SELECT k.id, a.n, a.action, a.forced FROM k JOIN actions a ON a.game_id = k.template"
        )
        conn.execute(
            "INSERT INTO summaries (game_id, scenario_id, title, ruleset, seats, humans, created, "
            "active_ms, n, to_act, outcome, ai_to_act) "
            "SELECT k.id, s.scenario_id, s.title, s.ruleset, s.seats, s.humans, s.created, k.active, "
            "s.n, s.to_act, s.outcome, s.ai_to_act FROM k JOIN summaries s ON s.game_id = k.template"
        )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    logged = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    conn.close()
    return total, logged, time.monotonic() - began


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    games, touch, actions = arg("--games", 100_000), arg("--touch", 1000), arg("--actions", 12)
    db = tempfile.mktemp(suffix=".db", prefix="grognard-lazy-figures-")
    try:
        templates(binary, db, actions)
        total, logged, took = fill(db, games)
        size = os.path.getsize(db) / 1e6
        print(f"file: {total} games, {logged} logged actions, {size:.0f} MB (filled in {took:.1f} s)")

        proc, host, port, began = start(binary, db, ["--cache-games", str(max(touch, 1))])
        try:
            listening = time.monotonic() - began
            conn = http.client.HTTPConnection(host, port)
            status, body, res = call(conn, "GET", "/api/games")
            answered = time.monotonic() - began
            assert status == 200, body
            rss, hwm = memory(proc.pid)
            print(
                f"start: listening after {listening:.3f} s, first page of the list answered after "
                f"{answered:.3f} s; VmRSS {rss:.1f} MB, VmHWM {hwm:.1f} MB"
            )

            # A page deep in the list: follow cursors for a while, time the last.
            cursor = res.getheader("x-next-cursor")
            for _ in range(200):
                status, _, res = call(conn, "GET", f"/api/games?limit=200&cursor={cursor}")
                cursor = res.getheader("x-next-cursor")
            t0 = time.perf_counter()
            call(conn, "GET", f"/api/games?limit=50&cursor={cursor}")
            deep = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            call(conn, "GET", "/api/games?limit=50")
            first = (time.perf_counter() - t0) * 1000
            print(f"list: first page of 50 in {first:.1f} ms, a page of 50 after 40,000 games in {deep:.1f} ms")

            before, _ = memory(proc.pid)
            ids = [f"{0x1000000 + i:016x}" for i in range(1, games - 5, max(1, (games - 5) // touch))][:touch]
            t0 = time.perf_counter()
            for gid in ids:
                status, body, _ = call(conn, "GET", f"/api/games/{gid}")
                assert status == 200, body
            loaded = time.perf_counter() - t0
            after, hwm = memory(proc.pid)
            t0 = time.perf_counter()
            for gid in ids:
                call(conn, "GET", f"/api/games/{gid}")
            cached = time.perf_counter() - t0
            print(
                f"cache: {len(ids)} games asked for, {loaded / len(ids) * 1000:.2f} ms each cold "
                f"(read and replayed), {cached / len(ids) * 1000:.2f} ms each cached; VmRSS "
                f"{before:.1f} -> {after:.1f} MB, {(after - before) * 1024 / len(ids):.0f} KB a game "
                f"in the cache; VmHWM {hwm:.1f} MB"
            )
        finally:
            proc.terminate()
            proc.wait()
    finally:
        for suffix in ("", "-wal", "-shm", ".lock"):
            try:
                os.remove(db + suffix)
            except FileNotFoundError:
                pass


if __name__ == "__main__":
    main()
