"""Browser-side figures for the Avenue table, beside a minimal ipycanvas notebook, in one run.

    .venv/bin/python benchmarks/browser_bench.py               # ~2-3 minutes; prints a table
    .venv/bin/python benchmarks/browser_bench.py --json out.json --clicks 30 --loads 5

Measured in headless Chromium (/usr/bin/chromium) against one Voila server serving the repo root
(as Binder does), each page its own kernel:

* page load → sheet drawn and clickable: ``performance.now()`` (ms since navigation start) when
  the composited sheet canvas has content and the status line shows the ready text;
* click → canvas updated: a click dispatched on the canvas from page JS, then getImageData polled
  on every animation frame until the clicked cell's pixels change (median and p95);
* kernel websocket messages and bytes per click, both directions (Playwright frame events),
  counted from the click until the kernel has been quiet for 0.4 s.

Pages of the two notebooks are loaded alternately so drift on the shared 2-core box hits both.
The figures are a script's output, not timed tests: docs/performance_browser.md records them.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from avenue_driver import AvenueDriver, MinimalDriver  # noqa: E402
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


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def measure_load(browser: Any, server: VoilaServer, driver: Any) -> float:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = ctx.new_page()
    try:
        page.goto(server.url(driver.notebook, driver.query), wait_until="commit")
        handle = page.wait_for_function(READY_JS + f"({json.dumps(driver.ready_pattern)})", polling="raf",
                                        timeout=120_000)
        return float(handle.json_value())
    finally:
        close_page(page)
        ctx.close()


def measure_clicks(browser: Any, server: VoilaServer, driver: Any, n: int) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = ctx.new_page()
    frames = FrameLog(page)
    try:
        page.goto(server.url(driver.notebook, driver.query))
        driver.wait_ready(page)
        settle(page, frames, quiet=1.0)
        lat: list[float] = []
        per_click: list[dict[str, Any]] = []
        kinds: Counter[str] = Counter()
        first = True
        while len(lat) < n:
            target = driver.next_click(page)      # may flip a card / start a new game first
            settle(page, frames, quiet=0.4)
            mark = frames.mark()
            x, y, region = target
            ms = page.evaluate(JS_HELPERS + ";(a) => window.__sk.timeClick(...a)", [x, y, *region, 10_000])
            if ms < 0:
                raise RuntimeError(f"{driver.name}: the canvas did not change within 10 s of a click at ({x}, {y})")
            settle(page, frames, quiet=0.4)
            got = frames.since(mark)
            driver.after_click(page)
            if first:        # the very first click pays one-off costs (JIT, first comm message)
                first = False
                continue
            lat.append(ms)
            ins = [f for f in got if f[1] == "in"]
            outs = [f for f in got if f[1] == "out"]
            per_click.append({"in": len(ins), "out": len(outs), "in_bytes": sum(f[2] for f in ins),
                              "out_bytes": sum(f[2] for f in outs)})
            kinds.update(f"{f[1]} {f[3]}" for f in got)
        m = len(per_click)
        return {
            "clicks": len(lat), "median_ms": statistics.median(lat), "p95_ms": pct(lat, 0.95),
            "min_ms": min(lat), "max_ms": max(lat),
            "msgs_in": sum(c["in"] for c in per_click) / m, "msgs_out": sum(c["out"] for c in per_click) / m,
            "bytes_in": sum(c["in_bytes"] for c in per_click) / m,
            "bytes_out": sum(c["out_bytes"] for c in per_click) / m,
            "kinds_per_click": {k: round(v / m, 2) for k, v in sorted(kinds.items())},
        }
    finally:
        close_page(page)
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=30, help="timed clicks per notebook (after one warm-up click)")
    ap.add_argument("--loads", type=int, default=5, help="page loads per notebook")
    ap.add_argument("--code", default="AV-0000-001A", help="Avenue game code for the dashboard URL")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    drivers = [MinimalDriver(), AvenueDriver(code=args.code)]
    results: dict[str, Any] = {"loads": {}, "clicks": {}}
    with tempfile.TemporaryDirectory(prefix="sk-bench-") as tmp, sync_playwright() as pw:
        server = VoilaServer(REPO, Path(tmp), cull_idle=20).start()
        browser = launch_browser(pw)
        try:
            for d in drivers:                      # warm the server's caches (static files, imports)
                measure_load(browser, server, d)
            loads: dict[str, list[float]] = {d.name: [] for d in drivers}
            for _ in range(args.loads):
                for d in drivers:
                    loads[d.name].append(measure_load(browser, server, d))
            for d in drivers:
                results["loads"][d.name] = {"median_ms": statistics.median(loads[d.name]),
                                            "min_ms": min(loads[d.name]), "max_ms": max(loads[d.name]),
                                            "all_ms": [round(x) for x in loads[d.name]]}
            for d in drivers:
                results["clicks"][d.name] = measure_clicks(browser, server, d, args.clicks)
        finally:
            browser.close()
            server.stop()

    mini, ave = MinimalDriver.name, AvenueDriver.name
    lm, la = results["loads"][mini]["median_ms"], results["loads"][ave]["median_ms"]
    cm, ca = results["clicks"][mini], results["clicks"][ave]
    results["ratios"] = {"load": la / lm, "click_median": ca["median_ms"] / cm["median_ms"],
                         "click_p95": ca["p95_ms"] / cm["p95_ms"]}
    results["machine"] = {"python": platform.python_version(), "cpus": __import__("os").cpu_count(),
                          "date": time.strftime("%Y-%m-%d %H:%M")}
    print(f"{'':34}{'minimal canvas':>16}{'Avenue table':>16}{'ratio':>9}")
    print(f"{'page load -> drawn+clickable (med)':34}{lm:>14.0f}ms{la:>14.0f}ms{la / lm:>8.2f}x")
    print(f"{'click -> canvas updated, median':34}{cm['median_ms']:>14.1f}ms{ca['median_ms']:>14.1f}ms"
          f"{ca['median_ms'] / cm['median_ms']:>8.2f}x")
    print(f"{'click -> canvas updated, p95':34}{cm['p95_ms']:>14.1f}ms{ca['p95_ms']:>14.1f}ms"
          f"{ca['p95_ms'] / cm['p95_ms']:>8.2f}x")
    for key, label in (("msgs_in", "kernel->browser msgs / click"), ("msgs_out", "browser->kernel msgs / click"),
                       ("bytes_in", "kernel->browser bytes / click"), ("bytes_out", "browser->kernel bytes / click")):
        print(f"{label:34}{cm[key]:>16.1f}{ca[key]:>16.1f}{ca[key] / max(cm[key], 1e-9):>8.2f}x")
    for name in (mini, ave):
        print(f"\n{name}: messages per click by kind")
        for k, v in results["clicks"][name]["kinds_per_click"].items():
            print(f"  {v:6.2f}  {k}")
    print(f"\nloads (ms): minimal {results['loads'][mini]['all_ms']}, avenue {results['loads'][ave]['all_ms']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
