"""Drive Voila in headless Chromium: shared by tests/browser/ and benchmarks/browser_bench.py.

Everything a Voila server writes (config, runtime files, kernels' IPython dirs, HOME) goes into
a temporary directory, the port is free, the server binds 127.0.0.1 only, idle kernels are
culled, and ``stop()`` always ends the whole process group.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
REPO_CONFIG = REPO / "binder" / "jupyter-config"    # voila.py, jupyter_server_config.py: docs/classroom.md
# Screenshots, saved records and server logs; SHEETKIT_ARTIFACTS moves them (e.g. when the
# checkout is read-only for the user running the tests).
ARTIFACTS = Path(os.environ.get("SHEETKIT_ARTIFACTS") or REPO / "artifacts")
CHROMIUM = os.environ.get("SHEETKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
# What a Python error looks like once Voila or the output area has rendered it.
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "-" * 75)


class HarnessError(RuntimeError):
    """The browser harness could not do its job (server did not start, page never got ready...)."""


def chromium_or_fail() -> str:
    """The Chromium executable, or a clear error (never a skip): ``./dev test`` installs it."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        raise HarnessError(
            f"headless Chromium not found at {CHROMIUM}: the browser tests need Debian's chromium "
            "(`sudo apt-get install chromium`, which `./dev test` does for you), or set SHEETKIT_CHROMIUM")
    return CHROMIUM


def launch_browser(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=chromium_or_fail(), headless=True, args=CHROMIUM_ARGS)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def isolated_env(root: Path, venv: Path | None = None) -> dict[str, str]:
    """An environment whose Jupyter/IPython/HOME dirs all live under ``root``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "IPYTHON", "PYTHONPATH", "VIRTUAL_ENV", "PIP_"))}
    dirs = {"HOME": "home", "JUPYTER_CONFIG_DIR": "jupyter-config", "JUPYTER_DATA_DIR": "jupyter-data",
            "JUPYTER_RUNTIME_DIR": "jupyter-runtime", "IPYTHONDIR": "ipython", "MPLCONFIGDIR": "mpl",
            "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": "xdg-config", "TMPDIR": "tmp"}
    for var, name in dirs.items():
        (root / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(root / name)
    venv = venv or Path(sys.prefix)
    # The kernelspec a venv installs says "python": the venv's bin must come first on PATH.
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


class VoilaServer:
    """One Voila process serving a notebook (``/``) or a directory (``/voila/render/<path>``).

    ``app="lab"`` instead runs ``jupyter lab`` on the directory ``target``, with Voila as its server
    extension: the way Binder serves ``?urlpath=voila/render/...`` (same page URLs).
    """

    def __init__(self, target: Path, workdir: Path, venv: Path | None = None, cwd: Path = REPO,
                 cull_idle: int | None = 30, extra_args: list[str] | None = None, start_timeout: float = 90,
                 app: str = "voila", env: dict[str, str] | None = None, repo_config: bool = True) -> None:
        self.target = Path(target)
        self.workdir = Path(workdir)
        self.venv = venv or Path(sys.prefix)
        self.cwd = cwd
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log_path = self.workdir / f"{app}-{self.port}.log"
        self.killed: list[int] = []    # kernels that outlived voila and had to be killed by stop()
        self.env = {**isolated_env(self.workdir / "env", self.venv), **(env or {})}
        if repo_config:    # the repository's serving settings, as ./dev play and binder/start give them
            self.env["JUPYTER_CONFIG_PATH"] = str(REPO_CONFIG)
        # Voila starts one kernel per page load: cull those left idle (pages we closed), on top
        # of Voila's own shutdown-on-unload beacon. None: the repository's settings (binder/jupyter-config).
        culling = [] if cull_idle is None else [
            f"--MappingKernelManager.cull_idle_timeout={cull_idle}", "--MappingKernelManager.cull_interval=10",
            "--MappingKernelManager.cull_connected=False"]
        if app == "voila":
            self.args = [str(self.venv / "bin" / "voila"), str(self.target), "--no-browser",
                         f"--port={self.port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", *culling]
        elif app == "lab":
            self.args = [str(self.venv / "bin" / "jupyter"), "lab", "--no-browser", f"--port={self.port}",
                         "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
                         f"--ServerApp.root_dir={self.target}", "--IdentityProvider.token=",
                         "--ServerApp.password=", *culling]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                # jupyter server refuses to start as root (containers, CI) unless told it may;
                # Binder itself runs as a normal user, where the flag is not needed.
                self.args.append("--ServerApp.allow_root=True")
        else:
            raise ValueError(f"unknown app {app!r}")
        self.args += extra_args or []
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None

    # ----- life cycle ----------------------------------------------------------------------
    def start(self) -> VoilaServer:
        if not os.access(self.args[0], os.X_OK):
            raise HarnessError(f"{self.args[0]} not found: install the 'play' extras into {self.venv}")
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "wb")  # the child writes to it until stop(); our copy closes below
        self.proc = subprocess.Popen(self.args, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise HarnessError(f"voila exited with code {self.proc.returncode}:\n{self.log_tail()}")
            if "is running at" in self.log_text() and self._port_open():
                return self
            time.sleep(0.1)
        self.stop()
        raise HarnessError(f"voila did not start within {self.start_timeout:.0f} s:\n{self.log_tail()}")

    def _port_open(self) -> bool:
        with socket.socket() as s:
            s.settimeout(0.2)
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def stop(self) -> None:
        """End voila and every kernel it started."""
        p, self.proc = self.proc, None
        if p is None:
            return
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)          # voila shuts all its kernels down on SIGTERM
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    p.wait(timeout=5)
        # A kernel told to shut down may take a moment to exit after voila itself has: give it that moment.
        deadline = time.monotonic() + 10
        while self.leftover_pids() and time.monotonic() < deadline:
            time.sleep(0.2)
        # Kernels run in their own sessions; any survivor still names its connection file, which
        # lives under our private TMPDIR: end exactly those processes, and remember them (a leak).
        self.killed = self.leftover_pids()
        for pid in self.killed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def leftover_pids(self) -> list[int]:
        """Processes (kernels) still running whose command line mentions this server's private dirs."""
        mark = str(self.workdir / "env").encode()
        pids = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit() or int(d.name) == os.getpid():
                continue
            try:
                if mark in (d / "cmdline").read_bytes():
                    pids.append(int(d.name))
            except OSError:
                continue
        return pids

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- helpers -------------------------------------------------------------------------
    def url(self, notebook: str | None = None, query: str = "") -> str:
        """The page URL: ``notebook`` is a path relative to the served directory (None in notebook mode)."""
        path = "" if notebook is None else f"voila/render/{notebook}"
        return self.base + path + (f"?{query}" if query else "")

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-n:])

    def has_kernel(self, kernel_id: str) -> bool:
        """Whether the server still knows kernel ``kernel_id`` (Voila answers a kernel's model, not the list)."""
        try:
            with urllib.request.urlopen(f"{self.base}api/kernels/{kernel_id}", timeout=5):
                return True
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return False
            raise


# ----- pages ---------------------------------------------------------------------------------

def close_page(page: Any) -> None:
    """Leave the page so Voila's unload beacon shuts its kernel down, then close it."""
    with contextlib.suppress(Exception):
        page.goto("about:blank", timeout=5000)
    with contextlib.suppress(Exception):
        page.close()


def page_text(page: Any) -> str:
    return str(page.evaluate("() => document.body ? document.body.innerText : ''"))


def assert_no_traceback(page: Any) -> None:
    text = page_text(page)
    for marker in TRACEBACK_MARKERS:
        if marker in text:
            raise AssertionError(f"the page shows a Python traceback:\n{text[-3000:]}")
    errs = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
    if errs.count():
        raise AssertionError(f"the page shows an error output: {errs.first.inner_text()[:2000]}")


def save_record(page: Any, path: Path) -> tuple[str, dict[str, Any]]:
    """Press the table's Save, download the record its link offers to ``path``: (suggested name, record)."""
    page.locator(".sk-save").click()
    link = page.locator("a.sk-download")
    link.wait_for(state="visible")
    with page.expect_download() as dl:
        link.click()
    dl.value.save_as(path)
    return dl.value.suggested_filename, json.loads(Path(path).read_text())


def status_text(page: Any) -> str:
    loc = page.locator(".sk-status")
    return loc.first.inner_text() if loc.count() else ""


def wait_ready(page: Any, status: str | re.Pattern[str] | None = None, timeout: float = 90) -> None:
    """Wait until the sheet canvas exists and has been drawn on, and the status line shows ``status``."""
    deadline = time.monotonic() + timeout
    pat = re.compile(re.escape(status)) if isinstance(status, str) else status
    last = ""
    while time.monotonic() < deadline:
        for marker in ("model not found", "Model not found", *TRACEBACK_MARKERS):
            if marker in (txt := page_text(page)):
                raise HarnessError(f"page shows {marker!r}:\n{txt[-2000:]}")
        if page.evaluate(JS_SHEET_DRAWN):
            last = status_text(page)
            if pat is None or pat.search(last):
                return
        time.sleep(0.1)
    raise HarnessError(f"page not ready after {timeout:.0f} s (status line: {last!r}); page text:\n"
                       f"{page_text(page)[-2000:]}")


# JS shared by tests and benchmarks. The sheet is `.sk-sheet`: a <canvas> (an ipycanvas
# MultiCanvas, its layers composited) or a <div> of stacked layer canvases (sheetkit's
# StackedCanvas). Coordinates in canvas pixels map to CSS pixels by the canvas's bounding rect
# (this covers devicePixelRatio and any CSS scaling). Setting `window.__sk.sheet` to another
# selector (e.g. '.sk-town') points every helper at that canvas instead (the benchmark's
# Key Harvest registry clicks).
JS_HELPERS = r"""
window.__sk = window.__sk || {
  sheet: null,
  layers() {
    const el = document.querySelector(this.sheet || '.sk-sheet');
    if (!el) return [];
    return el.tagName === 'CANVAS' ? [el] : Array.from(el.querySelectorAll('canvas'));
  },
  info() {
    const ls = this.layers();
    if (!ls.length) return null;
    const top = ls[ls.length - 1], r = top.getBoundingClientRect();
    // layoutWidth: the CSS width the sheet is drawn for (its widget layout); on a phone it is shown
    // narrower (cssWidth), so canvas px per layout px (the drawing scale) is width / layoutWidth.
    return {width: top.width, height: top.height, left: r.left, top: r.top, cssWidth: r.width,
            cssHeight: r.height, layoutWidth: parseFloat(top.style.width) || r.width,
            dpr: window.devicePixelRatio, layers: ls.length};
  },
  composite(x, y, w, h) {
    // Draw all layers (bottom first) onto one scratch canvas and return its pixels. The scratch
    // canvas is kept: timeClick polls this many times per click.
    const ls = this.layers();
    if (!this._scratch) {
      this._scratch = document.createElement('canvas');
      this._sctx = this._scratch.getContext('2d', {willReadFrequently: true});
    }
    const c = this._scratch, ctx = this._sctx;
    if (c.width < w || c.height < h) { c.width = Math.max(c.width, w); c.height = Math.max(c.height, h); }
    ctx.clearRect(0, 0, w, h);
    for (const l of ls) ctx.drawImage(l, x, y, w, h, 0, 0, w, h);
    return ctx.getImageData(0, 0, w, h).data;
  },
  region(x, y, w, h) { return Array.from(this.composite(x, y, w, h)); },
  // The same pixels as base64: a 2x sheet is 4 MB of RGBA, far too slow as a JSON array of numbers.
  regionB64(x, y, w, h) {
    const d = this.composite(x, y, w, h);
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
    return btoa(s);
  },
  hash(x, y, w, h) {
    const d = this.composite(x, y, w, h);
    let s = 0;
    for (let i = 0; i < d.length; i++) s = (s * 31 + d[i]) >>> 0;
    return s;
  },
  // Per cell of a square grid (canvas px): the colour `inset` px in from its top-left corner
  // (where only tints show, never icons or roads) and how many pixels lie within `tol` (sum of
  // |dR|+|dG|+|dB|) of the ink colour; a 2 px margin is skipped so a neighbour's stroke ends
  // (antialiased across the shared edge) never count.
  cells(x0, y0, cell, rows, cols, inset, ink, tol) {
    const i = this.info();
    const d = this.composite(0, 0, i.width, i.height);
    const out = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const cx = Math.round(x0 + c * cell), cy = Math.round(y0 + r * cell), s = Math.round(cell);
      const k = ((cy + inset) * i.width + cx + inset) * 4;
      let n = 0;
      for (let y = cy + 2; y < cy + s - 2; y++) for (let x = cx + 2; x < cx + s - 2; x++) {
        const q = (y * i.width + x) * 4;
        if (Math.abs(d[q] - ink[0]) + Math.abs(d[q + 1] - ink[1]) + Math.abs(d[q + 2] - ink[2]) <= tol) n++;
      }
      out.push({row: r, col: c, corner: [d[k], d[k + 1], d[k + 2]], ink: n});
    }
    return out;
  },
  clientPoint(x, y) {
    const i = this.info();
    return {x: i.left + x * i.cssWidth / i.width, y: i.top + y * i.cssHeight / i.height};
  },
  dispatchClick(x, y) {
    // What a real click sends to ipycanvas: mousedown, mouseup, click at the same point.
    const ls = this.layers(), top = ls[ls.length - 1], p = this.clientPoint(x, y);
    const o = {clientX: p.x, clientY: p.y, bubbles: true, cancelable: true, view: window, button: 0};
    top.dispatchEvent(new MouseEvent('mousedown', o));
    top.dispatchEvent(new MouseEvent('mouseup', o));
    top.dispatchEvent(new MouseEvent('click', o));
  },
  // Click (x, y) in canvas pixels and resolve with ms until the region (rx, ry, rw, rh) changes.
  // ipycanvas shows a drawing by copying its model's canvas onto the page's <canvas> with
  // drawImage, so the region is checked right after each such copy: the figure is when the
  // pixels changed, not when a poll or the next animation frame (16.7 ms steps) noticed it,
  // and nothing keeps the page busy meanwhile. A slow poll covers any other way of drawing.
  timeClick(x, y, rx, ry, rw, rh, timeoutMs) {
    const before = this.hash(rx, ry, rw, rh);
    // Every layer's <canvas> (a sheet of stacked canvases updates only the layers it drew on).
    const ctxs = this.layers().map((l) => l.getContext('2d'));
    return new Promise((resolve) => {
      const t0 = performance.now();
      let done = false, timer = 0;
      const finish = (dt) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        for (const ctx of ctxs) delete ctx.drawImage;     // back to the prototype's
        resolve(dt);
      };
      const check = () => {
        const dt = performance.now() - t0;
        if (this.hash(rx, ry, rw, rh) !== before) finish(dt);
        else if (dt > timeoutMs) finish(-1);
      };
      for (const ctx of ctxs) {
        const original = ctx.drawImage;
        ctx.drawImage = function (...args) {
          const r = original.apply(this, args);
          if (!done) check();
          return r;
        };
      }
      const poll = () => { check(); if (!done) timer = setTimeout(poll, 50); };
      this.dispatchClick(x, y);
      timer = setTimeout(poll, 50);
    });
  },
};
"""

JS_SHEET_DRAWN = JS_HELPERS + r"""
(() => {
  const i = window.__sk.info();
  if (!i || !i.width || !i.height || !i.cssWidth) return false;
  // Drawn = more than one colour on the composited sheet.
  const d = window.__sk.composite(0, 0, i.width, i.height);
  const first = d[0] + ',' + d[1] + ',' + d[2] + ',' + d[3];
  for (let k = 4; k < d.length; k += 4 * 7) {
    if (d[k] + ',' + d[k + 1] + ',' + d[k + 2] + ',' + d[k + 3] !== first) return true;
  }
  return false;
})()
"""


def js(page: Any, expr: str, *args: Any) -> Any:
    """Evaluate a function expression with the helpers installed."""
    return page.evaluate(JS_HELPERS + f";({expr})", list(args) if args else None)


def canvas_info(page: Any) -> dict[str, Any]:
    info = page.evaluate(JS_HELPERS + ";window.__sk.info()")
    if not info:
        raise HarnessError("no .sk-sheet canvas on the page")
    return dict(info)


def region_pixels(page: Any, x: int, y: int, w: int, h: int) -> Any:
    """RGBA pixels (numpy array h×w×4) of the composited sheet, in canvas pixel coordinates."""
    import numpy as np

    data = page.evaluate(JS_HELPERS + ";(a) => window.__sk.regionB64(a[0], a[1], a[2], a[3])", [x, y, w, h])
    return np.frombuffer(base64.b64decode(data), dtype=np.uint8).reshape(h, w, 4)


# Canvas pixel (x, y) of the canvas `sel` (its top layer) → page point. A point above or below the screen is
# brought to the screen's middle first, as a person would scroll to it: Voila scrolls an inner box
# (#rendered_cells), not the window, and scrollIntoView does nothing for a canvas (TABLE_CSS gives canvases a
# huge negative scroll margin).
JS_CANVAS_POINT = """([sel, x, y]) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const cs = el.tagName === 'CANVAS' ? [el] : Array.from(el.querySelectorAll('canvas'));
  const c = cs[cs.length - 1];
  let r = c.getBoundingClientRect();
  const py = r.top + y * r.height / c.height;
  if (py < 0 || py > window.innerHeight) {
    (document.querySelector('#rendered_cells') || document.scrollingElement).scrollTop += py - innerHeight / 2;
    r = c.getBoundingClientRect();
  }
  return [r.left + x * r.width / c.width, r.top + y * r.height / c.height];
}"""


def scroll_to(page: Any, selector: str, top: float | None = None) -> None:
    """Scroll Voila's page so ``selector`` is in the screen's middle, or with ``top`` that many px from its top."""
    page.evaluate("""([s, top]) => { const r = document.querySelector(s).getBoundingClientRect();
        const box = document.querySelector('#rendered_cells') || document.scrollingElement;
        box.scrollTop += top === null ? (r.top + r.bottom - innerHeight) / 2 : r.top - top; }""", [selector, top])


def click_canvas(page: Any, x: float, y: float, selector: str = ".sk-sheet", touch: bool = False) -> None:
    """A real mouse click (Playwright input) at canvas pixel (x, y) of ``selector``, or with ``touch`` a tap of one
    finger there (the page's context needs ``has_touch=True``)."""
    p = page.evaluate(JS_CANVAS_POINT, [selector, x, y])
    if p is None:
        raise HarnessError(f"no canvas {selector} on the page")
    if touch:
        page.touchscreen.tap(p[0], p[1])
    else:
        page.mouse.click(p[0], p[1])


def press(locator: Any, touch: bool = False, **kw: Any) -> None:
    """Click a button (Playwright's locator) with the mouse, or with ``touch`` tap it."""
    if touch:
        locator.tap(**kw)
    else:
        locator.click(**kw)


# ----- websocket traffic ------------------------------------------------------------------------

def _decode_v1(payload: bytes) -> dict[str, Any] | None:
    """Decode one frame of Jupyter's v1 kernel websocket protocol (binary)."""
    try:
        (n,) = struct.unpack_from("<Q", payload, 0)
        offsets = list(struct.unpack_from(f"<{n}Q", payload, 8))
        parts = [payload[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]
        return {"channel": parts[0].decode(), "header": json.loads(parts[1]), "parent_header": json.loads(parts[2]),
                "content": json.loads(parts[4])}
    except Exception:
        return None


def describe_frame(payload: str | bytes) -> str:
    """A short kind for a kernel websocket frame: channel/msg_type[/comm method or event]."""
    msg: dict[str, Any] | None
    if isinstance(payload, bytes | bytearray):
        msg = _decode_v1(bytes(payload))
    else:
        try:
            msg = json.loads(payload)
        except Exception:
            msg = None
    if not msg:
        return "other"
    kind = f"{msg.get('channel', '?')}/{msg.get('header', {}).get('msg_type', '?')}"
    content = msg.get("content") or {}
    if kind.endswith("comm_msg"):
        data = content.get("data") or {}
        method = data.get("method", "?")
        sub = (data.get("content") or {}).get("event") if method == "custom" else None
        kind += f"/{method}" + (f":{sub}" if sub else "")
    elif kind.endswith("/status"):
        kind += f":{content.get('execution_state')}"
    return kind


class FrameLog:
    """Every kernel websocket frame of a page, both directions, with sizes and kinds."""

    def __init__(self, page: Any) -> None:
        self.frames: list[tuple[float, str, int, str]] = []   # (t, "in"/"out", bytes, kind)
        page.on("websocket", self._on_ws)

    def _on_ws(self, ws: Any) -> None:
        if "/api/kernels/" not in ws.url:
            return
        ws.on("framereceived", lambda p: self._add("in", p))
        ws.on("framesent", lambda p: self._add("out", p))

    def _add(self, direction: str, payload: str | bytes) -> None:
        size = len(payload.encode()) if isinstance(payload, str) else len(payload)
        self.frames.append((time.monotonic(), direction, size, describe_frame(payload)))

    def mark(self) -> int:
        return len(self.frames)

    def since(self, mark: int) -> list[tuple[float, str, int, str]]:
        return self.frames[mark:]

    def kernel_idle(self) -> bool:
        """True when the kernel's last status was idle and nothing was sent to it since."""
        for _, direction, _, kind in reversed(self.frames):
            if direction == "out" and kind.startswith("shell/"):
                return False
            if kind.startswith("iopub/status:"):
                return kind.endswith(":idle")
        return True


def settle(page: Any, frames: FrameLog, quiet: float = 0.4, timeout: float = 10, idle: bool = True) -> None:
    """Wait until no kernel frame has arrived for ``quiet`` seconds (and, with ``idle``, the kernel is idle).

    Quiet alone is not enough: a handler busy for a second (e.g. analysis panels drawing a chart
    after a round) sends nothing until it ends.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(50)
        last = frames.frames[-1][0] if frames.frames else 0.0
        if time.monotonic() - last >= quiet and (not idle or frames.kernel_idle()):
            return


@contextlib.contextmanager
def voila(target: Path, workdir: Path, **kw: Any) -> Iterator[VoilaServer]:
    server = VoilaServer(target, workdir, **kw)
    server.start()
    try:
        yield server
    finally:
        server.stop()


SCREENS = ((1280, 800), (1024, 768), (390, 844))   # a laptop, a tablet, a phone


def at_screens(page: Any, anchor: str) -> Iterator[tuple[int, int]]:
    """Each screen size in turn, with ``anchor`` scrolled to the top of the window (Voila scrolls its own
    container, not the document): the caller looks, measures or takes its screenshot at each."""
    for w, h in SCREENS:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(400)
        page.locator(anchor).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(200)
        yield w, h


# ----- touch ------------------------------------------------------------------------------------------

# Room to scroll the page by touch. ipycanvas cancels every touch on a canvas (preventDefault), so a swipe
# that starts on one scrolls nothing: for each row of the page (every 4 px down Voila's scrolling box,
# #rendered_cells, wherever it is scrolled to) the widest stretch that no canvas of a table covers, in px.
JS_SWIPE_ROOM = """() => {
  const box = document.querySelector('#rendered_cells') || document.scrollingElement;
  const off = box.scrollTop - box.getBoundingClientRect().top, width = box.clientWidth;
  const rects = Array.from(document.querySelectorAll('.sk-table canvas')).map((c) => c.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  let least = Infinity, at = 0;
  for (let y = 0; y < box.scrollHeight; y += 4) {
    const spans = rects.filter((r) => r.top + off <= y && y < r.bottom + off)
      .map((r) => [Math.max(0, r.left), Math.min(width, r.right)]).sort((a, b) => a[0] - b[0]);
    let x = 0, widest = 0;
    for (const [a, b] of spans) { widest = Math.max(widest, a - x); x = Math.max(x, b); }
    widest = Math.max(widest, width - x);
    if (widest < least) { least = widest; at = y; }
  }
  return {least, at, width};
}"""


def swipe_room(page: Any) -> dict[str, float]:
    """The narrowest room to start a swipe over all rows of the page: ``least`` px, in the row ``at`` px down."""
    return dict(page.evaluate(JS_SWIPE_ROOM))


def scroll_top(page: Any) -> float:
    """How far Voila's page is scrolled (its #rendered_cells box scrolls, not the document)."""
    return float(page.evaluate("() => { const b = document.querySelector('#rendered_cells');"
                               " return b ? b.scrollTop : document.scrollingElement.scrollTop; }"))


def swipe(page: Any, x: float, y0: float, y1: float, steps: int = 10) -> None:
    """One finger down at (x, y0), moved to (x, y1) in ``steps`` (a frame apart), lifted: the browser's own touch
    input (Chrome DevTools Protocol), as a phone's screen makes it."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y0}]})
        for i in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchMove", "touchPoints": [{"x": x, "y": y0 + (y1 - y0) * i / steps}]})
            page.wait_for_timeout(16)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()
