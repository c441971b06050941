"""Nothing in the repo points outside it: code, docs, notebooks, tests and config name only files a user of
the repo has (GUIDE: the rules live in docs/<game>.md, never beside the checkout).

Refused: a relative path that climbs out of the repo from the file it is written in, or that climbs to
something the repo does not hold (a folder beside the checkout); absolute paths into machine-specific
places — a work or mount folder, a home directory (on Linux, macOS or Windows, or written with a tilde).
System programs the tests start (Chromium under the system's bin folder) are not files of the repo's and
stay allowed. A line that must hold such a path as data — a hostile input a test feeds the engine — says
so with the marker ``not-a-repo-path`` in a comment.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis",
             ".ipynb_checkpoints", "build", "dist", "artifacts"}
MARKER = "not-a-repo-path"
UP = re.compile(r"(?<![\w.])(?:\.\.[/\\])+[\w.\-/\\]*")  # one or more "parent folder" steps and what follows
ABSOLUTE = re.compile(
    r"(?<![\w.:/-])/(?:work|home|root|Users|mnt|media|srv|scratch)/"  # machine folders, home directories
    r"|(?<![\w/])~(?=/)"                                              # a home directory, shell style
    r"|\b[A-Za-z]:[/\\]+Users\b",                                     # a Windows home directory
)


def repo_files() -> list[Path]:
    """The files of the repo: git's list (tracked, and new files not ignored) when there is one, else a walk."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout
        paths = [ROOT / p for p in out.decode("utf-8").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        paths = [p for p in ROOT.rglob("*") if p.is_file()]
    return sorted(p for p in paths if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)
                  and not any(part.endswith(".egg-info") for part in p.parts))


@cache
def names_in_repo() -> frozenset[str]:
    """Every file and folder name the repo holds (what a relative path may climb to)."""
    return frozenset(part for p in repo_files() for part in p.relative_to(ROOT).parts)


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary or oversized file (images, archives)."""
    data = path.read_bytes()
    if len(data) > 5_000_000 or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def outside_paths(path: Path, text: str) -> list[str]:
    """Each place in ``text`` (the content of ``path``) that names a file outside the repo."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if MARKER in line:
            continue
        for m in UP.finditer(line):
            rel = m.group(0).replace("\\", "/")
            first = next((part for part in rel.split("/") if part not in ("..", "")), None)
            if not (path.parent / rel).resolve().is_relative_to(ROOT):
                found.append(f"{n}: {m.group(0)!r} leaves the repo")
            elif first is not None and first not in names_in_repo():
                found.append(f"{n}: {m.group(0)!r} climbs to {first!r}, which the repo does not hold")
        found += [f"{n}: {m.group(0)!r} is a path on someone's machine" for m in ABSOLUTE.finditer(line)]
    return found


def test_no_file_of_the_repo_points_outside_it() -> None:
    files = repo_files()
    kinds = {p.suffix for p in files}
    assert {".py", ".md", ".ipynb", ".toml"} <= kinds and len(files) > 100  # the scan sees the whole repo
    bad = []
    for path in files:
        text = text_of(path)
        if text is not None:
            bad += [f"{path.relative_to(ROOT)}:{where}" for where in outside_paths(path, text)]
    assert not bad, "paths outside the repo:\n" + "\n".join(bad)


# The samples are assembled from parts so that this file itself never holds a path outside the repo.
UP2, SHARED = "../" * 2, "sha" + "red"


@pytest.mark.parametrize(("where", "text"), [
    ("docs/avenue.md", f"rules: `{UP2[:3]}{SHARED}/rules/avenue.md`"),
    ("README.md", f"the rules beside the checkout: {UP2[:3]}{SHARED}/rules/"),
    ("sheetkit/games/key_harvest/__init__.py", f"Rules as implemented: /{'work'}/{SHARED}/rules/key_harvest.md"),
    ("tests/test_x.py", f"open('{UP2}{UP2}etc/passwd')"),
    ("notebooks/lessons/a.ipynb", f"see [the rules]({UP2}{UP2}rules.md)"),
    ("README.md", f"cd /{'home'}/ann/sheetkit"),
    ("binder/postBuild", "cp ~" + "/notes.txt ."),
    ("pyproject.toml", "data = 'C:" + "\\\\Users\\\\ann\\\\x'"),
])
def test_the_scan_finds_each_kind_of_outside_path(where: str, text: str) -> None:
    """The scan can fail: each kind of path it refuses, written where it might turn up."""
    assert outside_paths(ROOT / where, text), text


@pytest.mark.parametrize(("where", "text"), [
    ("notebooks/lessons/a.ipynb", "[`../whatif.ipynb`](../whatif.ipynb)"),  # up one, still inside the repo
    ("tests/browser/voila_harness.py", 'CHROMIUM = "/usr/bin/chromium"'),
    ("docs/key_harvest.md", "`docs/key_harvest.md` and https://github.com/x/y/tree/main/docs"),
    ("tests/test_x.py", f"'{UP2}{UP2}etc/passwd'  # hostile input, {MARKER}"),
])
def test_the_scan_leaves_paths_inside_the_repo_alone(where: str, text: str) -> None:
    assert outside_paths(ROOT / where, text) == [], text
