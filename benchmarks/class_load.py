"""A class on one server: N pages open the same Avenue deal at once on one Voila and play it like students.

    nice -n 10 .venv/bin/python benchmarks/class_load.py                 # 30 pages (3 in Chromium), ~5 min
    nice -n 10 .venv/bin/python benchmarks/class_load.py --quick         # 6 pages, 3 moves each, ~1.5 min
    nice -n 10 .venv/bin/python benchmarks/class_load.py --pages 10 --moves 4 --json out.json

The script starts one Voila serving the repository with the repository's own settings
(binder/jupyter-config: the closed page's kernel shut down, idle culling, Voila's patience with 30 pages at once),
in private HOME and Jupyter dirs, as ``./dev play`` does; then N pages of
``notebooks/avenue.ipynb?code=...&bots=greedy`` open at the same moment: ``--browsers`` of them (default 3) in one
headless Chromium (one browser context per page: one student each), the others as students without a browser
(benchmarks/class_students.py: the messages a page sends, since a class's browsers run on their own devices and
would otherwise take most of this machine's CPU). It prints:

* time until each page is playable (from the moment all pages were opened: the status line asks for
  a road and the sheet is drawn with its tinted cells; without a browser: the kernel has drawn the sheet
  and is idle), p50 / p95 / max;
* click → redraw while every page plays: each page draws ``--moves`` roads, a student's thinking
  time (``--think`` seconds, seeded) before each, the click dispatched on the sheet from the page's
  JS and timed until the clicked cell's pixels change (the same clock as benchmarks/browser_bench.py;
  without a browser: until the kernel is idle after the click), p50 / p95, and apart for the Chromium pages;
  the Next card presses between moves are made but not timed;
* memory of the kernels (resident set of each kernel process, read from /proc) while all play;
* errors: a page that never got playable, a Python traceback on a page, a page error, a click not
  taken, a server log traceback; the browser's failed fetches of outside resources (this machine is
  offline) are counted apart;
* kernels still running after the pages close (each page leaves as a student's tab closes), every
  few seconds for ``--after`` seconds (120 by default, the goal's 2 minutes).

One machine plays both sides: the server and the Chromium pages share its 2 cores (``--browsers 30`` puts every
student's browser there, which a class never does). The load average
before and after is printed: other work on the machine slows everything. docs/classroom.md records
the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))
sys.path.insert(0, str(HERE))

from class_students import ProtocolStudent, configure_http  # noqa: E402
from voila_harness import (  # noqa: E402
    CHROMIUM_ARGS,
    JS_HELPERS,
    REPO,
    TRACEBACK_MARKERS,
    VoilaServer,
    chromium_or_fail,
)

NOTEBOOK = "notebooks/avenue.ipynb"
# The Avenue sheet's grid (tests/browser/avenue_driver.py: the DOM contract in docs/architecture.md).
X0, Y0, CELL, ROWS, COLS, INSET = 28.0, 48.0, 54.0, 7, 6, 6
LEGAL_RED_DROP = 10
OFFLINE = "net::ERR_NAME_NOT_RESOLVED"     # the page asks the internet for fonts; this machine is offline

# Playable: the status line asks for a road and the sheet shows tinted (legal) cells.
# (One pixel per cell, in from its corner where only the tint shows: reading the whole sheet 30 pages at a time
# kept the browser busier than the pages themselves.)
JS_LEGAL = JS_HELPERS + r""";(() => {
  const st = document.querySelector('.sk-status');
  if (!st || !/Draw road \d/.test(st.innerText)) return null;
  const i = window.__sk.info();
  if (!i || !i.width || !i.cssWidth) return null;
  const s = i.width / i.layoutWidth, g = GRID, at = (x, y) => window.__sk.composite(Math.round(x), Math.round(y), 1, 1);
  const paper = at(4 * s, 4 * s)[0], legal = [];
  for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++) {
    const px = at((g.x0 + c * g.cell + g.inset) * s, (g.y0 + r * g.cell + g.inset) * s);
    if (px[0] <= paper - g.drop) legal.push([r, c]);
  }
  return legal.length ? {legal, scale: s} : null;
})()""".replace("GRID", json.dumps({"x0": X0, "y0": Y0, "cell": CELL, "rows": ROWS, "cols": COLS, "inset": INSET,
                                    "drop": LEGAL_RED_DROP}))
JS_STATUS = "() => { const s = document.querySelector('.sk-status'); return s ? s.innerText : ''; }"
JS_TEXT = "() => document.body ? document.body.innerText : ''"


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def load_avg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def rss_mb(pid: int) -> float | None:
    """A process's resident set in MB (None once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def server_cpu(server: VoilaServer) -> float:
    """CPU seconds used so far by the server: Voila's process and its running kernels."""
    return (cpu_s(server.proc.pid) if server.proc else 0.0) + sum(cpu_s(p) for p in kernel_pids(server))


def kernel_pids(server: VoilaServer) -> list[int]:
    """The server's kernel processes (their command line names a connection file in the server's private dirs)."""
    pids = []
    for p in server.leftover_pids():
        try:
            if b"ipykernel" in Path(f"/proc/{p}/cmdline").read_bytes():
                pids.append(p)
        except OSError:
            continue
    return pids


class Student:
    """One page, one student: opens the deal, waits until it can play, draws roads with thinking time between."""

    def __init__(self, k: int, page: Any, url: str, moves: int, think: tuple[float, float], seed: int) -> None:
        self.k, self.page, self.url, self.moves, self.think = k, page, url, moves, think
        self.rng = random.Random(seed * 1000 + k)
        self.ready_s: float | None = None
        self.clicks_ms: list[float] = []
        self.errors: list[str] = []
        self.offline = 0
        self.slow_widget = 0
        page.on("pageerror", self._page_error)
        page.on("console", self._console)

    def _page_error(self, e: Any) -> None:
        if "[anywidget] Failed to initialize model" in str(e):
            self.slow_widget += 1     # anywidget's 2 s limit on a busy page: PageLink renews the widget
        else:
            self.errors.append(f"page {self.k}: page error {str(e)[:160]}")

    def _console(self, m: Any) -> None:
        if m.type != "error":
            return
        if OFFLINE in m.text or "Failed to load resource" in m.text:
            self.offline += 1
        else:
            self.errors.append(f"page {self.k}: console error {m.text[:160]}")

    async def status(self) -> str:
        return str(await self.page.evaluate(JS_STATUS))

    async def check_traceback(self) -> None:
        text = str(await self.page.evaluate(JS_TEXT))
        for marker in TRACEBACK_MARKERS:
            if marker in text:
                self.errors.append(f"page {self.k}: shows a Python traceback")
                raise RuntimeError("traceback")

    async def wait_legal(self, timeout: float) -> dict[str, Any]:
        # the status line first (a cheap check), then the sheet's pixels (a whole sheet read: not 4 times a second
        # on 30 pages, which would load the machine more than the pages themselves)
        deadline = time.monotonic() + timeout
        await self.page.wait_for_function(
            "() => /Draw road \\d/.test((document.querySelector('.sk-status') || {}).innerText || '')",
            polling=400, timeout=timeout * 1000)
        handle = await self.page.wait_for_function(JS_LEGAL, polling=400,
                                                   timeout=max(1.0, deadline - time.monotonic()) * 1000)
        return dict(await handle.json_value())

    async def open(self, t0: float, timeout: float) -> None:
        try:
            await self.page.goto(self.url, wait_until="commit", timeout=timeout * 1000)
            await self.wait_legal(timeout - (time.monotonic() - t0))
            self.ready_s = time.monotonic() - t0
            await self.check_traceback()
        except Exception as e:   # the figure says how many never got playable, and why
            if not self.errors or "traceback" not in self.errors[-1]:
                self.errors.append(f"page {self.k}: not playable ({type(e).__name__}: {str(e)[:120]})")

    async def play(self) -> None:
        if self.ready_s is None:
            return
        try:
            for _ in range(self.moves):
                await asyncio.sleep(self.rng.uniform(*self.think))       # the student thinks
                st = await self.wait_legal(60)
                row, col = self.rng.choice(st["legal"])
                s = st["scale"]
                x, y = (X0 + (col + 0.5) * CELL) * s, (Y0 + (row + 0.5) * CELL) * s
                region = [round((X0 + col * CELL) * s), round((Y0 + row * CELL) * s), round(CELL * s), round(CELL * s)]
                ms = await self.page.evaluate(JS_HELPERS + ";(a) => window.__sk.timeClick(...a)",
                                              [x, y, *region, 30_000])
                if ms < 0:
                    self.errors.append(f"page {self.k}: a click on ({row}, {col}) did not draw within 30 s")
                    return
                self.clicks_ms.append(float(ms))
                await self.page.wait_for_function(
                    "() => /You drew road|press Next card|Game over/i.test("
                    "(document.querySelector('.sk-status') || {}).innerText || '')", timeout=60_000)
                for _ in range(20):                   # flip until it asks for a road again
                    text = await self.status()
                    if re.search(r"Game over", text) or not re.search(r"press Next card", text, re.I):
                        break
                    await self.page.locator(".sk-next").first.click(timeout=60_000)
                    await self.page.wait_for_function(
                        "(before) => { const s = document.querySelector('.sk-status');"
                        " return s && s.innerText !== before; }", arg=text, timeout=60_000)
                if re.search(r"Game over", await self.status()):
                    break
            await self.check_traceback()
            # a reload would lose nothing: the page's link carries the game (widgets/resume.py)
            try:
                await self.page.wait_for_function("() => /[?&]resume=/.test(location.search)", timeout=30_000)
            except Exception:
                self.errors.append(f"page {self.k}: its link never carried the game's resume code")
        except Exception as e:
            if not self.errors or "traceback" not in self.errors[-1]:
                self.errors.append(f"page {self.k}: stopped playing ({type(e).__name__}: {str(e)[:120]})")

    async def leave(self) -> None:
        """Close the tab as a student does: the page unloads (Voila's goodbye to its kernel), then it closes."""
        try:
            await self.page.goto("about:blank", timeout=10_000)
        except Exception:
            pass
        try:
            await self.page.close()
        except Exception:
            pass


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    out: dict[str, Any] = {"pages": args.pages, "moves": args.moves, "think_s": args.think,
                           "load_before": load_avg(), "when": time.strftime("%Y-%m-%d %H:%M")}
    workdir = Path(tempfile.mkdtemp(prefix="class-load-"))
    server = VoilaServer(REPO, workdir, cull_idle=None, repo_config=True)
    server.start()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium_or_fail(), headless=True, args=CHROMIUM_ARGS)
            url = server.url(NOTEBOOK, f"code={args.code}&bots={args.bots}")
            students: list[Any] = []
            browsers = min(args.browsers, args.pages)
            # one browser window (context) per student: tabs of one window would stay in the background, where the
            # browser does not draw (the canvases never show)
            for k in range(browsers):
                ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
                page = await ctx.new_page()
                page.set_default_timeout(60_000)
                students.append(Student(k, page, url, args.moves, tuple(args.think), args.seed))
            # the others' browsers are on their own devices: here they are the pages' messages without a browser
            configure_http(args.pages)
            path = url.removeprefix(server.base.rstrip("/"))
            students += [ProtocolStudent(k, server.base, path, args.moves, tuple(args.think), args.seed)
                         for k in range(browsers, args.pages)]
            out["browsers"] = browsers
            print(f"» {args.pages} pages open {url} at once, {browsers} in Chromium (load {out['load_before']})",
                  flush=True)
            t0 = time.monotonic()
            await asyncio.gather(*(s.open(t0, args.ready_timeout) for s in students))
            out["server_cpu_open_s"] = server_cpu(server)
            ready = [s.ready_s for s in students if s.ready_s is not None]
            out["playable"] = len(ready)
            out["ready_s"] = {"p50": pct(ready, 0.5), "p95": pct(ready, 0.95), "max": max(ready, default=float("nan"))}
            in_chromium = [s.ready_s for s in students[:browsers] if s.ready_s is not None]
            out["ready_chromium_s"] = {"n": len(in_chromium), "max": max(in_chromium, default=float("nan"))}
            print(f"» playable: {len(ready)}/{args.pages}, max {out['ready_s']['max']:.1f} s; now playing", flush=True)

            mem: list[float] = []

            async def sample_memory() -> None:
                while True:
                    await asyncio.sleep(5)
                    now = [m for p in kernel_pids(server) if (m := rss_mb(p)) is not None]
                    if len(now) >= len(mem):
                        mem[:] = now

            sampler = asyncio.create_task(sample_memory())
            t_play = time.monotonic()
            await asyncio.gather(*(s.play() for s in students))
            out["play_s"] = time.monotonic() - t_play
            out["server_cpu_play_s"] = server_cpu(server) - out["server_cpu_open_s"]
            sampler.cancel()
            clicks = [ms for s in students for ms in s.clicks_ms]
            seen = [ms for s in students[:browsers] for ms in s.clicks_ms]
            out["click_chromium_ms"] = {"n": len(seen), "p50": pct(seen, 0.5), "p95": pct(seen, 0.95)}
            out["clicks"] = len(clicks)
            out["click_ms"] = {"p50": pct(clicks, 0.5), "p95": pct(clicks, 0.95),
                               "max": max(clicks, default=float("nan"))}
            out["kernels_while_playing"] = len(mem)
            out["kernel_rss_mb"] = {"mean": statistics.fmean(mem) if mem else float("nan"),
                                    "max": max(mem, default=float("nan")), "total": sum(mem)}
            out["load_playing"] = load_avg()

            print("» the students close their tabs", flush=True)
            await asyncio.gather(*(s.leave() for s in students))
            t_close = time.monotonic()
            left: list[tuple[float, int]] = []
            while True:
                n = len(kernel_pids(server))
                left.append((round(time.monotonic() - t_close, 1), n))
                if time.monotonic() - t_close >= args.after:
                    break
                await asyncio.sleep(5)
            out["kernels_left"] = left[-1][1]
            out["kernels_left_after_s"] = left[-1][0]
            out["kernels_gone_within_s"] = next((t for t, n in left if n == 0), None)
            await browser.close()
        log = server.log_text()
        server_errors = [ln for ln in log.splitlines() if "Traceback" in ln or " 403 " in f" {ln} "
                         or ln.startswith("403")]
        errors = [e for s in students for e in s.errors] + [f"server: {ln[:160]}" for ln in server_errors]
        out["errors"] = errors
        out["offline_fetches"] = sum(s.offline for s in students)
        out["slow_widget_starts"] = sum(s.slow_widget for s in students)
        out["load_after"] = load_avg()
    finally:
        server.stop()
    return out


def report(out: dict[str, Any]) -> None:
    r, c, m = out["ready_s"], out["click_ms"], out["kernel_rss_mb"]
    print()
    print(f"class_load: {out['pages']} pages of {NOTEBOOK} on one Voila, {out['when']}; "
          f"load average before {out['load_before']}, while playing {out['load_playing']}, after {out['load_after']}")
    print(f"  playable            {out['playable']}/{out['pages']} pages; from opening: p50 {r['p50']:.1f} s, "
          f"p95 {r['p95']:.1f} s, max {r['max']:.1f} s   (goal: all within 90 s)")
    rc, cc = out["ready_chromium_s"], out["click_chromium_ms"]
    print(f"  in Chromium         {rc['n']}/{out['browsers']} pages playable (sheet drawn with its legal cells), "
          f"max {rc['max']:.1f} s; {cc['n']} clicks to the pixels changing: p50 {cc['p50']:.0f} ms, "
          f"p95 {cc['p95']:.0f} ms")
    print(f"  click → redraw      {out['clicks']} clicks while all play: p50 {c['p50']:.0f} ms, p95 {c['p95']:.0f} ms, "
          f"max {c['max']:.0f} ms   (goal: p95 ≤ 300 ms)")
    print(f"  kernel memory       {out['kernels_while_playing']} kernels: {m['mean']:.0f} MB each "
          f"(max {m['max']:.0f}), "
          f"{m['total']:.0f} MB in all (resident set)")
    per_page = out["server_cpu_open_s"] / out["pages"]
    print(f"  server CPU          {out['server_cpu_open_s']:.0f} s to open the {out['pages']} pages "
          f"({per_page:.1f} s a page: Voila and the kernels, process time; on 2 free cores {out['pages']} pages need "
          f"≥ {out['server_cpu_open_s'] / 2:.0f} s), {out['server_cpu_play_s']:.0f} s while they played "
          f"({1000 * out['server_cpu_play_s'] / max(1, out['clicks']):.0f} ms a move, the bots' and Next card's too)")
    print(f"  errors              {len(out['errors'])}   (goal: none)")
    for e in out["errors"][:20]:
        print(f"      {e}")
    print(f"  slow widget starts  {out['slow_widget_starts']} (anywidget gave up on a page's hidden widget after "
          "2 s; the table renewed it: the link check above says whether it worked)")
    print(f"  offline fetches     {out['offline_fetches']} (the page's outside fonts; this machine has no internet)")
    gone = out["kernels_gone_within_s"]
    gone_text = f" (all gone within {gone:.0f} s)" if gone is not None else ""
    print(f"  kernels left        {out['kernels_left']} at {out['kernels_left_after_s']:.0f} s after the pages closed"
          f"{gone_text}   (goal: 0 after 2 minutes)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--moves", type=int, default=6, help="roads each student draws")
    ap.add_argument("--think", type=float, nargs=2, default=(2.0, 6.0), metavar=("MIN", "MAX"),
                    help="a student's thinking time before each move, seconds (uniform)")
    ap.add_argument("--browsers", type=int, default=3,
                    help="pages opened in headless Chromium; the others send the pages' messages without a browser "
                         "(benchmarks/class_students.py), as the class's browsers run on their own devices")
    ap.add_argument("--after", type=float, default=120, help="seconds to watch the kernels after the pages close")
    ap.add_argument("--ready-timeout", type=float, default=240)
    ap.add_argument("--code", default="AV-0000-001A")
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="6 pages, 3 moves each, 30 s after closing")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    if args.quick:
        args.pages, args.moves, args.after = min(args.pages, 6), min(args.moves, 3), min(args.after, 30)
    out = asyncio.run(run(args))
    report(out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
