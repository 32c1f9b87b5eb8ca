"""What the server tests share: a heavy request that ignores its own clock, HTTP calls
on a real socket, and the processes a server started (read from /proc)."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
# The first 25x25 of Gecode's examples (MIT-style licence; in ../shared/data/sizes too):
# proving its solution unique takes minutes, so a rating of it runs to its time limit,
# and a hint with a long limit stays busy for a fifth of it.
BIG = ('...G...9..4.....6F..L8...CEIN.HDM.OF.1L..A..9PJ.4......A...L..JBN.2.D.1...HP49..'
       '.JB23.AD..7E..C5F...A1H....F.N5....I.BL...26.....7..C.6...H4B..1....I5.F.P...I..'
       'B..7.5.L...9....L6A...5OF.8P...K.NE..734B2.E..L...1J.5....O7.K.APO.5.CB1.P....3E'
       'M....2L.H.2..MJ.A...9.3.7......P.8C.....CF.DPG62N.E...OH.M.J.DL..OM..IE.B8..NH..'
       '.3..K.CO1F.B.N.AH..P.78.JE...DE..6.....H......4M.KIB9..N.J..6......C..1.5.G..H..'
       '...75LG...6..1..CI..4.E..9K..6.....HGN.O2P.4.......OA..IP849...2.K3...7GN....G..'
       '..N...P.D9....A...C1J...M.NAFE.4..23.7....8L......J.H9CD1LP..GO....4ME48NK..5.M.'
       '.....JL.......9.I.OG....835.A.DH..P.....35......L.J..E....8IG.67B')


def stall(seconds: float, send) -> None:
    """A worker job that never looks at the clock (run as "server_kit:stall" by workers
    started with this folder on PYTHONPATH): only the server's kill stops it."""
    time.sleep(seconds)


def post(url: str, body: dict, timeout: float = 60) -> tuple[int, dict, float]:
    """(HTTP status, JSON answer, seconds taken)."""
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            status, data = reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        status, data = exc.code, json.loads(exc.read() or b"{}")
    return status, data, time.monotonic() - started


def alive(pid: int) -> bool:
    """Running (a zombie not yet reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def descendants(pid: int) -> set[int]:
    """Every process below `pid`: children, theirs, and so on."""
    parent_of = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent_of[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parent_of.items() if parent in frontier} - found
        found |= frontier
    return found


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
