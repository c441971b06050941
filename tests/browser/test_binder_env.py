"""Binder's environment works: binder/requirements.txt alone gives a server that draws the sheet.

``test_binder_pins_*`` are quick checks of the file. ``test_fresh_binder_env_serves_avenue`` (slow,
~1 min with a warm pip cache) does what repo2docker does: copies the repository (without its
venv, caches and build output) into a temp dir, builds a new venv there from
binder/requirements.txt only, run from the copy's root (so ``.`` installs sheetkit), then starts
that venv's ``jupyter lab`` with Voila as its server extension -- how mybinder.org serves
``?urlpath=voila/render/notebooks/avenue.ipynb`` -- and plays a click in Chromium. Nothing is
written into this checkout, so it also runs as a user who cannot write here; as root the
harness adds the flag jupyter server needs to start at all.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest
from avenue_driver import AvenueDriver
from voila_harness import REPO, VoilaServer, assert_no_traceback, close_page

pytestmark = pytest.mark.browser

REQ = REPO / "binder" / "requirements.txt"
RUNTIME = REPO / "binder" / "runtime.txt"
# The packages whose Python and browser halves must agree (else "model not found"), and the
# servers: all must be pinned exactly.
MUST_PIN = {"ipywidgets", "jupyterlab-widgets", "widgetsnbextension", "ipycanvas", "voila", "jupyterlab",
            "numpy", "matplotlib", "tqdm", "ipympl"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> tuple[dict[str, str], list[str]]:
    pins: dict[str, str] = {}
    other: list[str] = []
    for raw in REQ.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if m:
            pins[_norm(m.group(1))] = m.group(2)
        else:
            other.append(line)
    return pins, other


def test_binder_pins_are_exact_and_match_the_dev_env():
    pins, other = _pins()
    assert other == ["."], f"binder/requirements.txt must list '.' (and only pins besides it), got {other}"
    missing = sorted(MUST_PIN - set(pins))
    assert not missing, f"not pinned with == in binder/requirements.txt: {missing}"
    drift = {}
    for name, version in pins.items():
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue          # e.g. notebook: only Binder's base image has it
        if have != version:
            drift[name] = (version, have)
    assert not drift, f"binder pins differ from the tested environment (pinned, installed): {drift}"


def test_binder_runtime_matches_the_tested_python():
    runtime = RUNTIME.read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}", (
        f"binder/runtime.txt says {runtime}, the tests run Python {sys.version.split()[0]}")


def _python_for(runtime: str) -> str:
    ver = runtime.removeprefix("python-")
    exe = shutil.which(f"python{ver}")
    if exe:
        return exe
    if f"{sys.version_info.major}.{sys.version_info.minor}" == ver:
        return sys.executable
    pytest.fail(f"no python{ver} to build the Binder environment with (binder/runtime.txt)", pytrace=False)


# What a clone does not have (see .gitignore) or Binder does not need; the rest is copied.
NOT_IN_A_CLONE = shutil.ignore_patterns(".git", ".venv", "artifacts", "build", "dist", "*.egg-info", "__pycache__",
                                        ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis",
                                        ".ipynb_checkpoints", ".jupyter-test")


@pytest.fixture(scope="module")
def binder_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository, as repo2docker copies it into the image."""
    repo = tmp_path_factory.mktemp("binder") / "repo"
    shutil.copytree(REPO, repo, ignore=NOT_IN_A_CLONE)
    return repo


@pytest.fixture(scope="module")
def binder_venv(binder_repo: Path) -> Path:
    venv = binder_repo.parent / "venv"
    py = _python_for(RUNTIME.read_text().strip())
    subprocess.run([py, "-m", "venv", str(venv)], check=True)
    # From the copy's root, like repo2docker: "." in the file is the repository. pip's in-tree build
    # writes build/ and *.egg-info there, not in this checkout.
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--disable-pip-version-check", "-q",
                        "-r", str(REQ.relative_to(REPO))], cwd=binder_repo, capture_output=True, text=True,
                       timeout=1200)
    if r.returncode:
        pytest.fail(f"pip install -r binder/requirements.txt failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}",
                    pytrace=False)
    check = subprocess.run([str(venv / "bin" / "pip"), "check"], capture_output=True, text=True)
    assert check.returncode == 0, f"pip check in the Binder env:\n{check.stdout}{check.stderr}"
    return venv


@pytest.mark.slow
def test_fresh_binder_env_serves_avenue(binder_repo, binder_venv, browser, tmp_path, artifacts):
    # sheetkit came from "." (not from this checkout's editable install or PYTHONPATH)
    out = subprocess.run([str(binder_venv / "bin" / "python"), "-c",
                          "import sheetkit, sheetkit.widgets; print(sheetkit.__file__)"],
                         cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert str(binder_venv) in out, out

    server = VoilaServer(binder_repo, tmp_path / "lab", venv=binder_venv, cwd=binder_repo, app="lab", cull_idle=20)
    server.start()
    try:
        # JupyterLab answers too (the ?urlpath=lab badge).
        with urllib.request.urlopen(server.base + "lab", timeout=30) as resp:
            assert resp.status == 200 and b"JupyterLab" in resp.read()
        driver = AvenueDriver()
        ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = ctx.new_page()
        try:
            page.goto(server.url(driver.notebook, driver.query))
            driver.wait_ready(page)                 # fails on "model not found" or a traceback
            driver.check_one_draw(page)             # a click draws a road in that cell and no other
            assert_no_traceback(page)
            page.screenshot(path=str(artifacts / "binder-env-avenue.png"))
        finally:
            close_page(page)
            ctx.close()
    finally:
        server.stop()
        shutil.copy(server.log_path, artifacts / "binder-env-lab.log")
    assert not server.killed, f"kernels still running 10 s after the server stopped: {server.killed}"
