"""Benchmark of the play page on localhost, in a real headless Chromium:

1. first paint with a puzzle (navigation to the board drawn and the status set);
2. a hint for a 9x9 (/api/hint round trip), over several puzzles;
3. 20 concurrent solve requests, while the page keeps asking the server for small
   answers and the player keeps typing: their latencies idle and under load.

    python -m cpsudoku.bench.play [--runs 5] [--data ../shared/data]

Needs the test extra (playwright) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
READY = "document.querySelector('[data-role=status]').textContent.includes('loaded')"

# In the page: fetch a small answer and type a digit (and wait for the conflict check),
# over and over, recording each latency in ms, until told to stop.
PROBE = """async () => {
  window.probe = { fetch: [], type: [], stop: false };
  const cell = document.querySelector('[data-cell="r1c2"]');
  while (!window.probe.stop) {
    let t = performance.now();
    await fetch('/api/features');
    window.probe.fetch.push(performance.now() - t);
    t = performance.now();
    cell.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    const key = (init) => document.body.dispatchEvent(
      new KeyboardEvent('keydown', { bubbles: true, ...init }));
    // Each latency counts from the key to the highlight drawn from the server's check.
    const until = (want) => new Promise((done) => {
      const limit = performance.now() + 10000;  // a lost answer shows as a 10 s latency
      const seen = () => (cell.classList.contains('conflict') === want
                          || performance.now() > limit ? done() : setTimeout(seen, 1));
      seen();
    });
    key({ key: '8', code: 'Digit8' });
    await until(true);
    window.probe.type.push(performance.now() - t);
    key({ key: 'z', code: 'KeyZ', ctrlKey: true });
    await until(false);
    await new Promise((done) => setTimeout(done, 20));
  }
  return window.probe;
}"""


def post(url: str, body: dict, timeout: float = 120) -> tuple[int, dict, float]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            data = json.loads(reply.read())
            status = reply.status
    except urllib.error.HTTPError as exc:
        data, status = json.loads(exc.read() or b"{}"), exc.code
    return status, data, (time.perf_counter() - started) * 1000


def summary(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"median {statistics.median(ordered):7.1f}   p95 {p95:7.1f}   "
            f"max {ordered[-1]:7.1f}   (n={len(ordered)})")


def puzzles(data: Path | None, count: int) -> list[str]:
    """Hard 9x9 puzzles from the public top95 set when present, else Inkala's."""
    if data is not None:
        path = data / "classic" / "norvig_top95.txt"
        if path.is_file():
            lines = [x.strip() for x in path.read_text().splitlines()
                     if x.strip() and not x.startswith("#")]
            return [lines[i % len(lines)] for i in range(count)]
    return [INKALA] * count


def first_paint(browser, url: str, runs: int) -> tuple[list[float], list[float]]:
    ready, fcp = [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{url}?puzzle={quote(INKALA)}")
        page.wait_for_function(READY)
        ready.append(page.evaluate("performance.now()"))  # since navigation start
        paint = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0]"
                              " || {}).startTime || 0")
        fcp.append(paint)
        context.close()
    return ready, fcp


def hints(url: str, texts: list[str]) -> tuple[list[float], str | None]:
    times = []
    for text in texts:
        status, data, ms = post(url + "api/hint", {"puzzle": text})
        if status == 501:
            return [], data.get("error")
        if status != 200:
            return [], f"HTTP {status}: {data.get('error')}"
        times.append(ms)
    return times, None


def under_load(browser, url: str, texts: list[str], backends: list[str]) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}?puzzle={quote(INKALA)}")
    page.wait_for_function(READY)

    def start_probe() -> None:
        # Not awaited here: the loop runs in the page until stop_probe.
        page.evaluate(f"() => {{ window.probed = ({PROBE})(); }}")

    def stop_probe() -> dict:
        page.evaluate("window.probe.stop = true")
        return page.evaluate("window.probed")

    def probe(seconds: float) -> dict:
        start_probe()
        time.sleep(seconds)
        return stop_probe()

    idle = probe(2.0)
    answers: list[tuple[int, dict, float]] = []

    def one(i: int):
        body = {"puzzle": texts[i], "backend": backends[i % len(backends)],
                "max_solutions": 2, "time_limit": 5}
        answers.append(post(url + "api/solve", body))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(texts))]
    started = time.perf_counter()
    start_probe()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    loaded = stop_probe()
    context.close()
    return {"idle": idle, "loaded": loaded, "wall": wall, "answers": answers}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads to time")
    parser.add_argument("--hints", type=int, default=20, help="hint requests to time")
    parser.add_argument("--concurrent", type=int, default=20, help="solve requests at once")
    parser.add_argument("--backends", default="native,python-constraint,cpsat",
                        help="backends the concurrent solves rotate through")
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = parser.parse_args(argv)
    for option in ("runs", "hints", "concurrent"):
        if getattr(args, option) < 1:
            parser.error(f"--{option} must be at least 1, not {getattr(args, option)}")
    from ..backends import get
    from ..errors import BackendError
    for name in args.backends.split(","):
        try:
            get(name.strip())
        except BackendError as exc:
            parser.error(f"--backends: {exc}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("cpsudoku: error: the benchmark needs playwright (pip install -e '.[test]')",
              file=sys.stderr)
        return 2
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("cpsudoku: error: the benchmark needs Debian's chromium (apt-get install chromium)",
              file=sys.stderr)
        return 2
    from ..web.server import running
    data = args.data if args.data.is_dir() else None
    with running() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        ready, fcp = first_paint(browser, url, args.runs)
        hint_ms, hint_problem = hints(url, puzzles(data, args.hints))
        load = under_load(browser, url, puzzles(data, args.concurrent),
                          [b.strip() for b in args.backends.split(",")])
        browser.close()
    statuses: dict[str, int] = {}
    for code, body, _ in load["answers"]:
        key = body.get("status", f"HTTP {code}") if code == 200 else f"HTTP {code}"
        statuses[key] = statuses.get(key, 0) + 1
    print(f"play page benchmark, {url} (ms)")
    print(f"  first paint with a puzzle (ready)   {summary(ready)}   goal < 1000")
    print(f"  first contentful paint              {summary(fcp)}")
    if hint_problem:
        print(f"  hint, 9x9                           not measured: {hint_problem}")
    else:
        print(f"  hint, 9x9 (/api/hint round trip)    {summary(hint_ms)}   goal < 300")
    print(f"  {args.concurrent} concurrent solves ({args.backends}): "
          f"{load['wall']:.2f} s wall, statuses {statuses}")
    print(f"    each solve request                {summary([a[2] for a in load['answers']])}")
    print(f"    page fetch, idle                  {summary(load['idle']['fetch'])}")
    print(f"    page fetch, during the solves     {summary(load['loaded']['fetch'])}")
    print(f"    digit typed -> conflict shown, idle           {summary(load['idle']['type'])}")
    print(f"    digit typed -> conflict shown, during solves  {summary(load['loaded']['type'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
