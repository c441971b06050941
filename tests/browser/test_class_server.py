"""One server for a class (issue 15, part 2), served with the repository's own settings (binder/jupyter-config):
a closed page's kernel is shut down at once, and a page left idle loses its kernel to the culler and says so."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from avenue_driver import AvenueDriver
from voila_harness import close_page

pytestmark = pytest.mark.browser


def kernels(server: Any) -> list[int]:
    """The server's kernel processes (each names a connection file in the server's private dirs)."""
    out = []
    for pid in server.leftover_pids():
        try:
            if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
        except OSError:
            continue
    return out


def wait_kernels(server: Any, n: int, timeout: float) -> int:
    """Wait until the server runs ``n`` kernels; the count at the end."""
    deadline = time.monotonic() + timeout
    while (have := len(kernels(server))) != n and time.monotonic() < deadline:
        time.sleep(0.25)
    return have


def open_table(browser: Any, server: Any) -> Any:
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.set_default_timeout(60_000)
    d = AvenueDriver(code="AV-0000-001A", bots="greedy")
    page.goto(server.url(d.notebook, d.query))
    d.wait_ready(page)
    return page


def test_a_closed_page_shuts_its_kernel_down(voila_factory, browser):
    server = voila_factory(cull_idle=None)          # the repository's settings, no test culling
    first, second = open_table(browser, server), open_table(browser, server)
    assert wait_kernels(server, 2, 10) == 2
    close_page(first)                                # the tab closes: Voila's page asks for its kernel's end
    assert wait_kernels(server, 1, 20) == 1, "the closed page's kernel is still running"
    assert "'_xsrf' argument missing" not in server.log_text()
    close_page(second)
    assert wait_kernels(server, 0, 20) == 0
    assert " 403 " not in server.log_text()


def test_a_page_left_idle_loses_its_kernel_to_the_culler_and_says_so(voila_factory, browser):
    """SHEETKIT_CULL_IDLE / SHEETKIT_CULL_INTERVAL (seconds) override the 20 minutes / 60 s of the class settings;
    an open page's kernel is culled too, and the page shows how to carry on."""
    server = voila_factory(cull_idle=None, env={"SHEETKIT_CULL_IDLE": "6", "SHEETKIT_CULL_INTERVAL": "2"})
    page = open_table(browser, server)
    assert wait_kernels(server, 1, 10) == 1
    assert wait_kernels(server, 0, 40) == 0, "an idle kernel was not culled"
    # The process ends a moment before the server forgets the kernel (the shutdown's clean-up comes after), and
    # the page asks the server: wait until the server says so too, or the touch below may come in between.
    kernel_id = page.evaluate("() => window.__skKernel.id")
    deadline = time.monotonic() + 30
    while server.has_kernel(kernel_id) and time.monotonic() < deadline:
        time.sleep(0.25)
    assert not server.has_kernel(kernel_id), "the server still has the culled kernel"
    asked: list[str] = []       # the page's requests after the touch, for the failure message
    page.on("response", lambda r: asked.append(f"{r.status} {r.url}"))
    page.mouse.click(5, 5)      # the student comes back and touches the page: it checks on its kernel at once
    banner = page.locator(".sk-stopped")
    try:
        banner.wait_for(timeout=10_000)
    except Exception as e:
        raise AssertionError(f"no 'stopped' banner 10 s after a touch; the page's requests: {asked}") from e
    assert "Reload to carry on" in banner.inner_text()
    assert "Culling kernels with idle durations > 6 seconds at 2 second intervals" in server.log_text()
    close_page(page)


def test_a_class_opening_together_gets_every_table_and_leaves_no_kernel(voila_factory):
    """Six students open the same deal at the same moment (benchmarks/class_students.py: the messages their pages
    send), each gets a drawn sheet, draws two roads, and closes the tab: no page lost its table to Voila's wait for
    a cell's outputs, and every kernel is gone once they leave."""
    import asyncio
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from class_students import ProtocolStudent, configure_http

    server = voila_factory(cull_idle=None)
    d = AvenueDriver(code="AV-0000-001A", bots="greedy")
    path = server.url(d.notebook, d.query).removeprefix(server.base.rstrip("/"))

    async def lesson() -> list[ProtocolStudent]:
        configure_http(6)
        students = [ProtocolStudent(k, server.base, path, moves=2, think=(0.1, 0.3), seed=7) for k in range(6)]
        t0 = time.monotonic()
        await asyncio.gather(*(s.open(t0, 240) for s in students))
        await asyncio.gather(*(s.play() for s in students))
        await asyncio.gather(*(s.leave() for s in students))
        return students

    # on a thread of its own: Playwright's sync API keeps an event loop running on this one
    with ThreadPoolExecutor(1) as worker:
        students = worker.submit(lambda: asyncio.run(lesson())).result()
    assert [s.errors for s in students] == [[]] * 6
    assert all(s.ready_s is not None for s in students)
    assert all(len(s.clicks_ms) >= 2 for s in students)
    assert all(re.search(r"You drew road|Next card", s.status()) for s in students), [s.status() for s in students]
    assert wait_kernels(server, 0, 30) == 0, "a student's kernel outlived the closed tab"
    assert "Timeout waiting for IOPub output" not in server.log_text()
