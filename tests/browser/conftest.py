"""Fixtures for the browser tests: Voila servers in isolated dirs, and headless Chromium pages.

Run them with ``./dev test tests/browser`` (or ``-m browser``). They need Debian's Chromium at
/usr/bin/chromium (``./dev test`` installs it); without it they FAIL with that message.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from voila_harness import (
    ARTIFACTS,
    REPO,
    FrameLog,
    HarnessError,
    VoilaServer,
    close_page,
    launch_browser,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``artifacts/`` at the repo root (git-ignored): screenshots, saved records, server logs."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            b = launch_browser(pw)
        except HarnessError as e:
            pytest.fail(str(e), pytrace=False)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def voila_factory(tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> Iterator[Callable[..., VoilaServer]]:
    """Start Voila servers (isolated HOME/Jupyter/IPython dirs, free port); all stop at session end."""
    servers: list[VoilaServer] = []

    def start(target: Path | str = REPO, **kw: Any) -> VoilaServer:
        workdir = Path(tempfile.mkdtemp(prefix="voila-", dir=tmp_path_factory.getbasetemp()))
        server = VoilaServer(Path(target), workdir, **kw)
        servers.append(server)
        try:
            server.start()
        except HarnessError as e:
            pytest.fail(str(e), pytrace=False)
        return server

    yield start
    for s in servers:
        s.stop()
        shutil.copy(s.log_path, artifacts / s.log_path.name)
        assert not s.killed, f"kernels still running 10 s after voila stopped: {s.killed}"


@pytest.fixture(scope="session")
def repo_server(voila_factory: Callable[..., VoilaServer]) -> VoilaServer:
    """Voila serving the repository root, as Binder does: pages at /voila/render/notebooks/<nb>."""
    return voila_factory(REPO)


class Page:
    """A Chromium page plus what it logged: console errors, page errors, kernel websocket frames."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.frames = FrameLog(page)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                if m.type == "error" else None)


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest, artifacts: Path) -> Iterator[Page]:
    yield from _page_in(browser.new_context(viewport={"width": 1280, "height": 1000}, accept_downloads=True),
                        request, artifacts)


@pytest.fixture
def touch_page(browser: Any, request: pytest.FixtureRequest, artifacts: Path) -> Iterator[Page]:
    """A phone's or a tablet's page: a touch screen (``has_touch``, ``is_mobile``) of the viewport size the test
    is parametrized with (``size``)."""
    w, h = request.node.callspec.params["size"]
    yield from _page_in(browser.new_context(viewport={"width": w, "height": h}, has_touch=True, is_mobile=True),
                        request, artifacts)


def _page_in(context: Any, request: pytest.FixtureRequest, artifacts: Path) -> Iterator[Page]:
    """A page in ``context``; a failed test leaves its screenshot in artifacts/; the context closes after."""
    p = Page(context.new_page())
    p.page.set_default_timeout(30_000)
    try:
        yield p
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            try:
                p.page.screenshot(path=str(artifacts / f"FAILED-{request.node.name}.png"), full_page=True)
            except Exception:
                pass
        close_page(p.page)
        context.close()
