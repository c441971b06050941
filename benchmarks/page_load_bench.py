"""Page load of the Avenue and Key Harvest dashboards beside the minimal notebook, optionally before a change too.

    nice -n 10 .venv/bin/python benchmarks/page_load_bench.py --loads 8
    nice -n 10 .venv/bin/python benchmarks/page_load_bench.py --loads 8 --before main
    nice -n 10 .venv/bin/python benchmarks/page_load_bench.py --kernel-cpu 6 --before main

The figure is ``browser_bench.py``'s page load (navigation start → sheet drawn and the status line
ready, headless Chromium, one Voila server per code version). ``--before REV`` also loads each table
with its kernel importing sheetkit as it was at git revision ``REV`` (a temporary copy of that
revision on ``PYTHONPATH``), so before and after are timed in the same run. Every round loads each
page once, in turn, so a busy moment of the shared machine hits all of them; ratios are of medians.
``--kernel-cpu N`` times, instead of pages, the kernel's share: each notebook's code cells run in a fresh
interpreter (with the page's query), its CPU time (user + system, imports included) taken N times, in turn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from avenue_driver import AvenueDriver, MinimalDriver  # noqa: E402
from browser_bench import load_avg, measure_load  # noqa: E402
from key_harvest_driver import HarvestClicks  # noqa: E402
from voila_harness import REPO, VoilaServer, launch_browser  # noqa: E402


def checkout(rev: str, into: Path) -> Path:
    """Revision ``rev`` of this repo as plain files in ``into``, importable as ``sheetkit`` (widgets linked in)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "sheetkit" / "widgets").symlink_to(into / "widgets")  # the package maps widgets/ to sheetkit.widgets
    return into


NOTEBOOKS = {"minimal": ("benchmarks/minimal_canvas.ipynb", ""),
             "avenue": ("notebooks/avenue.ipynb", "code=AV-0000-001A"),
             "key-harvest": ("notebooks/key_harvest.ipynb", "code=KH-0000-0001&bots=greedy,greedy")}
RUN_CELLS = """
import json, os, resource, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
os.environ["QUERY_STRING"] = sys.argv[2]
scope = {}
for cell in nb["cells"]:
    if cell["cell_type"] == "code":
        exec(compile("".join(cell["source"]), "cell", "exec"), scope)
r = resource.getrusage(resource.RUSAGE_SELF)
print("CPU", r.ru_utime + r.ru_stime)
"""


def kernel_cpu(rounds: int, before: Path | None) -> dict[str, list[float]]:
    """CPU seconds of each notebook's code cells in a fresh interpreter, ``rounds`` times each, in turn."""
    runs = [(name, None) for name in NOTEBOOKS] + [(f"{name}@before", before) for name in NOTEBOOKS
                                                    if before is not None and name != "minimal"]
    out: dict[str, list[float]] = {name: [] for name, _ in runs}
    for _ in range(rounds):
        for name, code in runs:
            path, query = NOTEBOOKS[name.split("@")[0]]
            env = {**os.environ, **({"PYTHONPATH": str(code)} if code else {})}
            done = subprocess.run([sys.executable, "-c", RUN_CELLS, str(REPO / path), query],
                                  cwd=(REPO / path).parent, env=env, capture_output=True, text=True, check=True)
            out[name].append(float(done.stdout.split("CPU")[-1]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=8, help="page loads of each page (after one warm-up load each)")
    ap.add_argument("--before", metavar="REV", help="also time the tables with sheetkit as at this git revision")
    ap.add_argument("--kernel-cpu", type=int, metavar="N", help="instead: the notebooks' cells' CPU time, N runs each")
    ap.add_argument("--code", default="AV-0000-001A", help="Avenue game code")
    ap.add_argument("--kh-code", default="KH-0000-0001", help="Key Harvest game code (you + two greedy bots)")
    args = ap.parse_args(argv)

    if args.kernel_cpu:
        with tempfile.TemporaryDirectory(prefix="sk-load-") as tmp:
            before = checkout(args.before, Path(tmp) / "before-src") if args.before else None
            start_load = load_avg()
            cpu = kernel_cpu(args.kernel_cpu, before)
        base = statistics.median(cpu["minimal"])
        print(f"{'notebook cells':<28}{'CPU':>10}{'÷ minimal':>11}   runs (s)")
        for name, got in cpu.items():
            med = statistics.median(got)
            print(f"{name.replace('@before', '@' + str(args.before)):<28}{med:>9.2f}s{med / base:>10.2f}×   "
                  f"{[round(x, 2) for x in got]}")
        print(f"load average (1/5/15 min): {start_load} at the start, {load_avg()} at the end")
        return 0

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="sk-load-") as tmp, sync_playwright() as pw:
        now = VoilaServer(REPO, Path(tmp) / "now", cull_idle=20).start()
        pages = [("minimal", MinimalDriver(), now), ("avenue", AvenueDriver(code=args.code), now),
                 ("key-harvest", HarvestClicks(code=args.kh_code), now)]
        if args.before:
            old_code = checkout(args.before, Path(tmp) / "before-src")
            old = VoilaServer(REPO, Path(tmp) / "before", cull_idle=20, env={"PYTHONPATH": str(old_code)}).start()
            pages += [(f"avenue@{args.before}", AvenueDriver(code=args.code), old),
                      (f"key-harvest@{args.before}", HarvestClicks(code=args.kh_code), old)]
        start_load = load_avg()
        browser = launch_browser(pw)
        try:
            for _, driver, server in pages:           # warm the servers' caches (static files, imports)
                measure_load(browser, server, driver)
            loads: dict[str, list[float]] = {name: [] for name, _, _ in pages}
            for _ in range(args.loads):
                for name, driver, server in pages:
                    loads[name].append(measure_load(browser, server, driver))
        finally:
            browser.close()
            now.stop()
            if args.before:
                old.stop()
    base = statistics.median(loads["minimal"])
    print(f"{'page':<28}{'median':>10}{'÷ minimal':>11}   loads (ms)")
    for name, got in loads.items():
        med = statistics.median(got)
        print(f"{name:<28}{med:>8.0f}ms{med / base:>10.2f}×   {[round(x) for x in got]}")
    print(f"load average (1/5/15 min): {start_load} at the start, {load_avg()} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
