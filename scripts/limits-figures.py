#!/usr/bin/env python3
"""Figures for docs/SECURITY.md, measured against a real `grognard serve` on loopback.

    cargo build --release -p grognard
    python3 scripts/limits-figures.py target/release/grognard [--seconds 5] [--idle 2000] [--actions 1000] [--flooders 4]

1. Games one client creates a second over one kept-alive connection for `--seconds`,
   with the creation limit off (`--create-per-minute 0`) and at its defaults.
2. A player's latency (p50, p99, max) for actions over its own connection from
   127.0.0.2, alone and then while `--idle` idle connections are held from 127.0.0.1
   (each one the server closes is opened again at once, as an attacker would), and then
   while `--flooders` clients (from 127.0.0.3, 127.0.0.4, ...) ask for the list of games
   (`GET /api/games`) as fast as they can, besides the idle connections.

Not part of the test suite: it measures, it asserts nothing.
"""

import http.client
import json
import multiprocessing
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time


def arg(name, default):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


def start(binary, extra):
    db = tempfile.mktemp(suffix=".db", prefix="grognard-figures-")
    proc = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--db", db, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in proc.stdout:
        if "serving the lobby on http://" in line:
            addr = line.strip().rsplit("http://", 1)[1]
            host, port = addr.rsplit(":", 1)
            return proc, db, host, int(port)
    raise SystemExit("the server did not start")


def stop(proc, db):
    proc.terminate()
    proc.wait()
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass


def post(conn, path, body, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    conn.request("POST", path, body=json.dumps(body), headers=headers)
    res = conn.getresponse()
    return res.status, res.read()


NEW_GAME = {"scenario": "bridge-at-morne", "seats": {"blue": "human", "orange": "human"}}


def creations(binary, extra, seconds):
    proc, db, host, port = start(binary, extra)
    try:
        conn = http.client.HTTPConnection(host, port)
        made = refused = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            status, _ = post(conn, "/api/games", NEW_GAME)
            if status == 201:
                made += 1
            elif status == 429:
                refused += 1
        return made / seconds, made, refused
    finally:
        stop(proc, db)


def percentile(sorted_ms, p):
    return sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * p))]


def play(host, port, actions):
    """Ends phases in a new hotseat game; the latency of each action, in ms."""
    conn = http.client.HTTPConnection(host, port, source_address=("127.0.0.2", 0))
    status, body = post(conn, "/api/games", NEW_GAME)
    assert status == 201, (status, body)
    game = json.loads(body)
    tokens = [s["token"] for s in game["seats"].values()]
    n, taken = 0, []
    while len(taken) < actions:
        for t in tokens:
            start = time.perf_counter()
            status, body = post(
                conn,
                f"/api/games/{game['id']}/actions",
                {"action": {"type": "end_phase"}, "expect": n},
                t,
            )
            if status == 200:
                taken.append((time.perf_counter() - start) * 1000)
                n += 1
                if json.loads(body)["view"]["outcome"] is not None:
                    status, body = post(conn, "/api/games", NEW_GAME)
                    game = json.loads(body)
                    tokens = [s["token"] for s in game["seats"].values()]
                    n = 0
                break
    taken.sort()
    return percentile(taken, 0.5), percentile(taken, 0.99), taken[-1]


class Idle:
    """`count` idle connections from 127.0.0.1, each reopened when the server closes it."""

    def __init__(self, host, port, count):
        self.addr = (host, port)
        self.sel = selectors.DefaultSelector()
        for _ in range(count):
            self.open()

    def open(self):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(self.addr)
        self.sel.register(s, selectors.EVENT_READ)

    def churn(self, reopened):
        while True:
            for key, _ in self.sel.select(timeout=0.05):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.sel.unregister(s)
                    s.close()
                    self.open()
                    reopened.value += 1


def hold(host, port, count, reopened, ready):
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass
    idle = Idle(host, port, count)
    ready.set()
    idle.churn(reopened)


def flood(host, port, k, calls):
    """Asks for the list of games as fast as the server answers, from 127.0.0.(3 + k)."""
    while True:
        conn = http.client.HTTPConnection(host, port, source_address=(f"127.0.0.{3 + k}", 0))
        try:
            while True:
                conn.request("GET", "/api/games")
                conn.getresponse().read()
                calls.value += 1
        except (OSError, http.client.HTTPException):
            conn.close()


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    seconds, idle, actions = arg("--seconds", 5), arg("--idle", 2000), arg("--actions", 1000)
    flooders = arg("--flooders", 4)

    rate, made, _ = creations(binary, ["--create-per-minute", "0"], seconds)
    print(f"creation limit off: {rate:.0f} games/s ({made} in {seconds} s)")
    rate, made, refused = creations(binary, [], seconds)
    print(f"creation limit at its defaults: {rate:.1f} games/s ({made} created, {refused} refused with 429 in {seconds} s)")

    proc, db, host, port = start(binary, ["--create-per-minute", "0"])
    try:
        p50, p99, worst = play(host, port, actions)
        print(f"player alone: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms over {actions} actions")
        # The idle connections live in a process of their own, so that the player's
        # timings do not wait on them for Python's interpreter lock.
        reopened = multiprocessing.Value("q", 0)
        ready = multiprocessing.Event()
        churner = multiprocessing.Process(
            target=hold, args=(host, port, idle, reopened, ready), daemon=True
        )
        churner.start()
        # Every idle connection is opened before the player starts, then two seconds of churn.
        if not ready.wait(timeout=120):
            raise SystemExit("the idle connections could not be opened")
        time.sleep(2)
        p50, p99, worst = play(host, port, actions)
        print(
            f"player with {idle} idle connections held from 127.0.0.1: p50 {p50:.2f} ms, "
            f"p99 {p99:.2f} ms, max {worst:.2f} ms over {actions} actions "
            f"({reopened.value} idle connections closed by the server and reopened meanwhile)"
        )
        if flooders:
            calls = multiprocessing.Value("q", 0)
            floods = [
                multiprocessing.Process(target=flood, args=(host, port, k, calls), daemon=True)
                for k in range(flooders)
            ]
            for f in floods:
                f.start()
            time.sleep(1)
            began, listed = time.monotonic(), calls.value
            p50, p99, worst = play(host, port, actions)
            lists = (calls.value - listed) / (time.monotonic() - began)
            for f in floods:
                f.terminate()
            print(
                f"player with {idle} idle connections and {flooders} clients listing games: "
                f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms over {actions} actions "
                f"(the list answered {lists:.0f} times a second meanwhile)"
            )
        churner.terminate()
    finally:
        stop(proc, db)


if __name__ == "__main__":
    main()
