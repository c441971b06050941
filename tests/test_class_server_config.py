"""The class settings in binder/jupyter-config (issue 15, part 2): what Voila and JupyterLab read when serving."""

from __future__ import annotations

from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

CONFIG = Path(__file__).resolve().parents[1] / "binder" / "jupyter-config"


def load(name: str) -> object:
    return PyFileConfigLoader(name, path=str(CONFIG)).load_config()


def test_idle_kernels_are_culled_after_20_minutes_checked_every_minute_open_pages_too(monkeypatch):
    monkeypatch.delenv("SHEETKIT_CULL_IDLE", raising=False)
    monkeypatch.delenv("SHEETKIT_CULL_INTERVAL", raising=False)
    for name in ("voila.py", "jupyter_server_config.py"):      # Voila alone (./dev play), JupyterLab (Binder)
        km = load(name).MappingKernelManager
        assert (km.cull_idle_timeout, km.cull_interval, km.cull_connected) == (1200, 60, True), name
        assert load(name).KernelManager.transport == "ipc", name    # no TCP port races between new kernels
    # a student thinking for 10 minutes keeps the game
    assert load("voila.py").MappingKernelManager.cull_idle_timeout > 10 * 60


@pytest.mark.parametrize(("idle", "interval", "want"), [("300", "15", (300, 15)), ("0", "", (0, 60)),
                                                        ("soon", "-5", (1200, 1))])
def test_the_environment_overrides_the_culling(monkeypatch, idle, interval, want):
    monkeypatch.setenv("SHEETKIT_CULL_IDLE", idle)
    monkeypatch.setenv("SHEETKIT_CULL_INTERVAL", interval)
    km = load("voila.py").MappingKernelManager
    assert (km.cull_idle_timeout, km.cull_interval) == want


def test_voila_sets_the_xsrf_cookie_on_each_page_so_a_closed_page_can_shut_its_kernel_down():
    hook = load("voila.py").VoilaConfiguration.prelaunch_hook
    seen = []

    class Handler:
        @property
        def xsrf_token(self) -> bytes:
            seen.append("read")          # Tornado sets the _xsrf cookie when the token is first read
            return b"token"

    assert hook(Handler(), notebook={"cells": []}, cwd=".") is None      # the notebook is left as it is
    assert seen == ["read"]
