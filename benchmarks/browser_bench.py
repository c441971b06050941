"""Browser-side figures for the Avenue and Key Harvest tables, beside a minimal ipycanvas notebook, in one run.

    .venv/bin/python benchmarks/browser_bench.py               # ~2 minutes; prints a table
    .venv/bin/python benchmarks/browser_bench.py --json out.json --clicks 40 --loads 6
    .venv/bin/python benchmarks/browser_bench.py --games avenue  # the Avenue table only (as before)

Measured in headless Chromium (/usr/bin/chromium, software rendering) against one Voila server
serving the repo root (as Binder does), each page its own kernel:

* page load -> sheet drawn and clickable: ``performance.now()`` (ms since navigation start) when
  the composited sheet canvas has content and the status line shows the ready text;
* click -> canvas updated: a click dispatched on the canvas from page JS, then the clicked cell's
  pixels polled (getImageData) once per task until they change (median and p95);
* kernel websocket messages and bytes per click, both directions (Playwright frame events),
  counted from the click until the kernel is idle and quiet for 0.4 s;
* Avenue only: how long the kernel stays busy after Next card, for plain flips and for flips that
  end a round (the analysis panels below the table redraw their charts then);
* Avenue only: click -> canvas updated for the click right after a round-ending Next card (made as
  soon as the sheet asks for a road, while the panels redraw), with the panels redrawn off the
  message handler (the default) and inside it (``SHEETKIT_LIVE=inline``, a second server: how
  it was before).
* Key Harvest (``--games``, on by default): two pages of notebooks/key_harvest.ipynb against two
  greedy bots. ``key-harvest``: a click on your board that harvests a group (every turn's click;
  between timed clicks the driver buys or bids, ends the turn and the bots move, untimed), the
  clicked tile's pixels watched. ``key-harvest-registry``: a click on a registry tile of the town
  canvas that chooses it for the bid composer, alternating between two tiles (no move is made), the
  tile and its ring watched. Drivers: tests/browser/key_harvest_driver.py.

Every timed click starts with both kernels idle. Pages of the two notebooks are loaded
alternately, and their clicks interleaved one by one, so drift on a shared machine hits both.
The figures are a script's output, not timed tests: docs/performance.md records them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from avenue_driver import DRAW, NEXT, OVER, AvenueDriver, MinimalDriver  # noqa: E402
from key_harvest_driver import HarvestClicks, RegistryClicks  # noqa: E402
from voila_harness import (  # noqa: E402
    JS_HELPERS,
    REPO,
    FrameLog,
    VoilaServer,
    close_page,
    launch_browser,
    settle,
)

READY_JS = JS_HELPERS + r"""
((pattern) => {
  const i = window.__sk.info();
  if (!i || !i.width || !i.cssWidth) return false;
  const st = document.querySelector('.sk-status');
  if (!st || !new RegExp(pattern).test(st.innerText)) return false;
  const d = window.__sk.composite(0, 0, i.width, i.height);
  for (let k = 4; k < d.length; k += 28) {
    if (d[k] !== d[0] || d[k + 1] !== d[1] || d[k + 2] !== d[2] || d[k + 3] !== d[3]) return performance.now();
  }
  return false;
})
"""
VIEWPORT = {"width": 1280, "height": 1000}


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def ratio_interval(a: list[float], base: list[float], rounds: int = 2000) -> tuple[float, float]:
    """A 90% bootstrap interval for median(a) / median(base): clicks resampled in pairs (click k of each page
    was made at about the same time, so a busy moment of the machine hits both)."""
    rng = random.Random(0)
    n = min(len(a), len(base))
    out = []
    for _ in range(rounds):
        idx = [rng.randrange(n) for _ in range(n)]
        out.append(statistics.median(a[i] for i in idx) / statistics.median(base[i] for i in idx))
    out.sort()
    return out[int(0.05 * rounds)], out[int(0.95 * rounds) - 1]


def load_avg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def measure_load(browser: Any, server: VoilaServer, driver: Any) -> float:
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    try:
        page.goto(server.url(driver.notebook, driver.query), wait_until="commit")
        handle = page.wait_for_function(READY_JS + f"({json.dumps(driver.ready_pattern)})", polling="raf",
                                        timeout=120_000)
        return float(handle.json_value())
    finally:
        close_page(page)
        ctx.close()


def settle_all(page: Any, frames: FrameLog, quiet: float = 0.4) -> None:
    """Wait until no analysis panel says "updating…" (they redraw off the kernel's handler), then settle."""
    page.wait_for_function("() => !document.querySelector('.sk-live-note')", timeout=120_000)
    settle(page, frames, quiet=quiet, timeout=60)


def point_at(page: Any, selector: str, x: float, y: float) -> None:
    """Move the mouse onto canvas point (x, y), as a player's hand does before clicking there (untimed).

    The click itself is dispatched from page JS (to time it from there); without this the pointer
    stays where the driver last pressed a button, which a person's pointer never does when they
    click a sheet.
    """
    p = page.evaluate(JS_HELPERS + ";(a) => { const s = window.__sk; s.sheet = a[0];"
                      " try { return s.clientPoint(a[1], a[2]); } finally { s.sheet = null; } }", [selector, x, y])
    page.mouse.move(p["x"], p["y"])
    page.wait_for_timeout(50)                    # the hover change draws before the click


class Timed:
    """One open page of one notebook, clicked again and again."""

    def __init__(self, browser: Any, server: VoilaServer, driver: Any) -> None:
        self.driver = driver
        self.ctx = browser.new_context(viewport=VIEWPORT)
        self.page = self.ctx.new_page()
        self.frames = FrameLog(self.page)
        if hasattr(driver, "frames"):
            driver.frames = self.frames
        self.lat: list[float] = []
        self.per_click: list[dict[str, float]] = []
        self.kinds: Counter[str] = Counter()
        self.page.goto(server.url(driver.notebook, driver.query))
        driver.wait_ready(self.page)
        settle(self.page, self.frames, quiet=1.0, timeout=30)

    def click(self, keep: bool) -> None:
        d, page, frames = self.driver, self.page, self.frames
        x, y, region = d.next_click(page)         # may flip a card / start the deal again first
        settle_all(page, frames)
        point_at(page, getattr(d, "selector", ".sk-sheet"), x, y)
        mark = frames.mark()
        # the canvas clicked and watched: the player's sheet, or another (Key Harvest's town)
        ms = page.evaluate(JS_HELPERS + """;async (a) => { const s = window.__sk; s.sheet = a[0];
                             try { return await s.timeClick(...a.slice(1)); } finally { s.sheet = null; } }""",
                           [getattr(d, "selector", ".sk-sheet"), x, y, *region, 10_000])
        if ms < 0:
            raise RuntimeError(f"{d.name}: the canvas did not change within 10 s of a click at ({x}, {y})")
        settle_all(page, frames)
        got = frames.since(mark)
        d.after_click(page)
        if not keep:
            return
        self.lat.append(ms)
        ins = [f for f in got if f[1] == "in"]
        outs = [f for f in got if f[1] == "out"]
        self.per_click.append({"in": len(ins), "out": len(outs), "in_bytes": sum(f[2] for f in ins),
                               "out_bytes": sum(f[2] for f in outs)})
        self.kinds.update(f"{f[1]} {f[3]}" for f in got)

    def summary(self) -> dict[str, Any]:
        m = len(self.per_click)
        lat = self.lat
        return {
            "clicks": len(lat), "median_ms": statistics.median(lat), "p95_ms": pct(lat, 0.95),
            "min_ms": min(lat), "max_ms": max(lat), "all_ms": [round(x, 1) for x in lat],
            "msgs_in": sum(c["in"] for c in self.per_click) / m, "msgs_out": sum(c["out"] for c in self.per_click) / m,
            "bytes_in": sum(c["in_bytes"] for c in self.per_click) / m,
            "bytes_out": sum(c["out_bytes"] for c in self.per_click) / m,
            "kinds_per_click": {k: round(v / m, 2) for k, v in sorted(self.kinds.items())},
        }

    def close(self) -> None:
        close_page(self.page)
        self.ctx.close()


def flip_then_click(browser: Any, server: VoilaServer, code: str, samples: int) -> list[float]:
    """Click -> canvas updated for the click made at once after each round-ending Next card."""
    d = AvenueDriver(code=code)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    frames = FrameLog(page)
    out: list[float] = []
    try:
        page.goto(server.url(d.notebook, d.query))
        d.wait_ready(page)
        settle(page, frames, quiet=1.0, timeout=60)
        while len(out) < samples:
            text = d.status(page)
            if OVER.search(text):
                d.press(page, "sk-again")
                d.wait_status(page, DRAW, previous=text)
                settle_all(page, frames)
                continue
            if NEXT.search(text):
                rnd = d.round_number(page)
                d.press(page, "sk-next")
                text = d.wait_status(page, re.compile(f"{DRAW.pattern}|{OVER.pattern}|{NEXT.pattern}", re.I),
                                     previous=text)
                if not DRAW.search(text):
                    continue
                legal = d.wait_my_turn(page)
                if d.round_number(page) != rnd:       # that flip ended a round: the panels redraw now
                    row, col = d.choose(legal)
                    d.pending = (row, col)
                    x, y = d.cell_center(row, col)
                    ms = page.evaluate(JS_HELPERS + ";(a) => window.__sk.timeClick(...a)",
                                       [x, y, *d.cell_rect(row, col), 30_000])
                    if ms < 0:
                        raise RuntimeError("the canvas did not change within 30 s of a click after a round end")
                    out.append(ms)
                    d.acknowledge(page)
                    settle_all(page, frames)
                    continue
            d.draw(page, *d.choose(d.wait_my_turn(page)))
    finally:
        close_page(page)
        ctx.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=40, help="timed clicks per notebook (after one warm-up click)")
    ap.add_argument("--loads", type=int, default=6, help="page loads per notebook")
    ap.add_argument("--code", default="AV-0000-001A", help="Avenue game code for the dashboard URL")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    ap.add_argument("--round-ends", type=int, default=6,
                    help="timed clicks right after a round-ending Next card, panels deferred and inline each")
    ap.add_argument("--no-multicanvas", dest="multicanvas", action="store_false",
                    help="skip the extra row: the Avenue table with its sheet as one ipycanvas MultiCanvas")
    ap.add_argument("--no-small", dest="small", action="store_false",
                    help="skip the extra reference row: the minimal notebook at 1× (a quarter of the pixels)")
    ap.add_argument("--games", default="avenue,key-harvest",
                    help="tables timed beside the minimal notebook, comma-separated: avenue, key-harvest "
                         "(two pages: a harvest on your board, a registry tile chosen on the town)")
    ap.add_argument("--kh-code", default="KH-0000-0001", help="Key Harvest game code (you + two greedy bots)")
    args = ap.parse_args(argv)
    games = {g.strip() for g in args.games.split(",") if g.strip()}
    if not games or games - {"avenue", "key-harvest"}:
        ap.error(f"--games takes avenue and/or key-harvest, not {args.games!r}")

    from playwright.sync_api import sync_playwright

    avenue = AvenueDriver(code=args.code) if "avenue" in games else None
    baseline = MinimalDriver()                 # the same canvas as the Avenue sheet: 500×492 CSS px at 2×
    drivers: list[Any] = [baseline, *([avenue] if avenue else []), *([MinimalDriver(scale=1)] if args.small else [])]
    if args.multicanvas and avenue:
        multi = AvenueDriver(code=args.code)
        multi.name = "avenue-multicanvas"          # the same table, sheet layers as one MultiCanvas
        drivers.append(multi)
    no_load: set[str] = set()
    if "key-harvest" in games:
        registry = RegistryClicks(code=args.kh_code)
        drivers += [HarvestClicks(code=args.kh_code), registry]
        no_load.add(registry.name)             # the same page as key-harvest's: loaded once
    results: dict[str, Any] = {"loads": {}, "clicks": {}, "load_avg_start": load_avg()}
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sk-bench-") as tmp, sync_playwright() as pw:
        server = VoilaServer(REPO, Path(tmp), cull_idle=20).start()
        servers = {d.name: server for d in drivers}
        if args.multicanvas and avenue:
            servers["avenue-multicanvas"] = VoilaServer(REPO, Path(tmp) / "multi", cull_idle=20,
                                                        env={"SHEETKIT_SHEET_CANVAS": "multi"}).start()
        browser = launch_browser(pw)
        try:
            loaded = [d for d in drivers if d.name not in no_load]
            for d in loaded:                       # warm the server's caches (static files, imports)
                measure_load(browser, servers[d.name], d)
            loads: dict[str, list[float]] = {d.name: [] for d in loaded}
            for _ in range(args.loads):
                for d in loaded:
                    loads[d.name].append(measure_load(browser, servers[d.name], d))
            for d in loaded:
                results["loads"][d.name] = {"median_ms": statistics.median(loads[d.name]),
                                            "min_ms": min(loads[d.name]), "max_ms": max(loads[d.name]),
                                            "all_ms": [round(x) for x in loads[d.name]]}
            if args.round_ends and avenue:         # the click after a round end: panels deferred, then inline
                inline = VoilaServer(REPO, Path(tmp) / "inline", cull_idle=20,
                                     env={"SHEETKIT_LIVE": "inline"}).start()
                try:
                    results["after_round_end"] = {
                        "deferred_ms": flip_then_click(browser, server, args.code, args.round_ends),
                        "inline_ms": flip_then_click(browser, inline, args.code, args.round_ends)}
                finally:
                    inline.stop()
            if avenue:
                avenue.timings = []                # Next card presses: (ended a round, kernel busy ms)
            pages = [Timed(browser, servers[d.name], d) for d in drivers]
            try:
                for k in range(args.clicks + 1):   # the first click of each page pays one-off costs
                    for t in pages:
                        t.click(keep=k > 0)
                for t in pages:
                    results["clicks"][t.driver.name] = t.summary()
            finally:
                for t in pages:
                    t.close()
        finally:
            browser.close()
            for s in set(servers.values()):
                s.stop()
    results["load_avg_end"] = load_avg()
    results["seconds"] = round(time.monotonic() - t_start)
    if avenue and avenue.timings is not None:
        flips = [ms for ended, ms in avenue.timings if not ended]
        ends = [ms for ended, ms in avenue.timings if ended]
        results["next_card"] = {"flips": len(flips),
                                "flip_busy_median_ms": statistics.median(flips) if flips else None,
                                "round_ends": len(ends), "round_end_busy_ms": [round(x) for x in ends]}

    mini = baseline.name
    # the tables' ratios to the minimal notebook, each in its own column
    compared = [n for n in ("avenue", "key-harvest", "key-harvest-registry") if n in results["clicks"]]
    cm = results["clicks"][mini]
    for n in compared:
        c = results["clicks"][n]
        ratios = {"click_median": c["median_ms"] / cm["median_ms"], "click_p95": c["p95_ms"] / cm["p95_ms"],
                  "click_median_90": ratio_interval(c["all_ms"], cm["all_ms"])}
        if n in results["loads"]:
            ratios = {"load": results["loads"][n]["median_ms"] / results["loads"][mini]["median_ms"], **ratios}
        results["ratios" if n == "avenue" else f"ratios_{n.replace('-', '_')}"] = ratios
    results["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count(),
                          "date": time.strftime("%Y-%m-%d %H:%M")}
    names = [d.name for d in drivers]
    heads = {"avenue": "avenue/minimal", "key-harvest": "kh/minimal", "key-harvest-registry": "kh-reg/minimal"}
    wide = [max(14, len(n) + 2) for n in names]
    print(f"{'':38}" + "".join(f"{n:>{w}}" for n, w in zip(names, wide, strict=True))
          + "".join(f"{heads[n]:>16}" for n in compared))

    def row(label: str, vals: list[float], unit: str, fmt: str) -> None:
        cells = "".join(f"{'—' if v != v else format(v, fmt) + unit:>{w}}" for v, w in zip(vals, wide, strict=True))
        ratios = "".join(f"{'—':>16}" if vals[names.index(n)] != vals[names.index(n)]
                         else f"{vals[names.index(n)] / max(vals[0], 1e-9):>15.2f}x" for n in compared)
        print(f"{label:38}{cells}{ratios}")

    nan = float("nan")
    row("page load -> drawn+clickable, median",
        [results["loads"][n]["median_ms"] if n in results["loads"] else nan for n in names], "ms", ".0f")
    row("click -> canvas updated, median", [results["clicks"][n]["median_ms"] for n in names], "ms", ".1f")
    print(f"{'  median ratio, 90% interval (paired)':38}{'':{sum(wide)}}" + "".join(
        "{:>16}".format("{:.2f}–{:.2f}".format(*results["ratios" if n == "avenue" else
                                                       f"ratios_{n.replace('-', '_')}"]["click_median_90"]))
        for n in compared))
    row("click -> canvas updated, p95", [results["clicks"][n]["p95_ms"] for n in names], "ms", ".1f")
    for key, label in (("msgs_in", "kernel->browser msgs / click"), ("msgs_out", "browser->kernel msgs / click"),
                       ("bytes_in", "kernel->browser bytes / click"), ("bytes_out", "browser->kernel bytes / click")):
        row(label, [results["clicks"][n][key] for n in names], "", ".1f")
    for name in (mini, *compared):
        print(f"\n{name}: messages per click by kind")
        for k, v in results["clicks"][name]["kinds_per_click"].items():
            print(f"  {v:6.2f}  {k}")
    if "next_card" in results:
        nc = results["next_card"]
        print(f"\nAvenue Next card: kernel busy {nc['flip_busy_median_ms'] or 0:.0f} ms (median of {nc['flips']} "
              f"flips); flips that ended a round: {nc['round_end_busy_ms']} ms")
    if "after_round_end" in results:
        for key, label in (("deferred_ms", "panels off the handler (default)"),
                           ("inline_ms", "panels inside the handler (SHEETKIT_LIVE=inline)")):
            ms = results["after_round_end"][key]
            print(f"click right after a round-ending Next card, {label}: median {statistics.median(ms):.0f} ms, "
                  f"max {max(ms):.0f} ms; all {[round(x) for x in ms]}")
    for n in names:
        print(f"{n}: loads (ms) {results['loads'].get(n, {}).get('all_ms', '—')}\n"
              f"  clicks (ms) {results['clicks'][n]['all_ms']}")
    print(f"load average (1/5/15 min): {results['load_avg_start']} at the start, {results['load_avg_end']} at the end; "
          f"{results['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
