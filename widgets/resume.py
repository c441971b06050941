"""A reload loses nothing: the table keeps its game as a resume code, shown under the table and in the page's link.

After every move the table's resume code (``sheetkit/analysis/resume.py``: the deal, the bots and your moves, ~40
characters) goes into the page's address (``?code=…&bots=…&resume=…``, by ``widgets/page_link.py``). A reload, or a
page whose kernel was culled or restarted, runs the notebook again with that link: the table reads ``resume`` and
replays the game to where it was, with the same bots in the same state, so it goes on exactly as it would have.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any
from urllib.parse import parse_qsl, urlencode

import ipywidgets as W
from sheetkit.widgets.off_click import off_click_path
from sheetkit.widgets.query import share_query
from sheetkit.widgets.shared import HTMLStyle, shared

from sheetkit.core.errors import SheetkitError
from sheetkit.core.protocol import GameState

OWN_KEYS = ("code", "bots", "resume")     # the link's parts this keeper writes; any other stays as it was


def link_query(query: str, code: str | None, bots: list[str], resume: str | None) -> str:
    """``query`` with its deal, bots and resume code replaced (other parts, e.g. ``people``, kept in order)."""
    try:
        kept = [(k, v) for k, v in parse_qsl(query.lstrip("?"), keep_blank_values=True, max_num_fields=20)
                if k not in OWN_KEYS]
    except ValueError:
        kept = []
    parts = [urlencode(kept)] if kept else []
    if code:
        parts.append(share_query(code, bots))
    if resume:
        parts.append(urlencode({"resume": resume}))
    return "&".join(parts)


class ResumeKeeper:
    """Keeps a table's resume code up to date (under the table and in the page's link); brings a game back."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self._code: str | None = None
        self._dirty = False
        self.line = W.HTML(_dom_classes=("sk-resume",), layout=shared(W.Layout), style=shared(HTMLStyle))
        self._query = ""
        self._key: Any = None
        self._scheduled = False
        self._linked = False      # made from the page's link (from_query): the link follows the game
        table.on_change(lambda _event: self.update())
        # a render without an event (an undo, a step of the bots) still changes the status line
        table.status.observe(lambda _change: self.update(), names="value")
        self.update()

    def start(self, query: str, code: str | None) -> None:
        """The dashboard's link: remember its other parts; with a resume ``code``, bring that game back."""
        self._query, self._linked = query, True
        if code:
            self.restore(code)
        self._key = None
        self.update()

    @property
    def link(self) -> str:
        """The query string the page's link shows now."""
        _ = self.code
        return str(self.table.page.query)

    def restore(self, code: str) -> bool:
        """Replay the game of ``code`` into the table, its bots included; False (said in the status line) if not."""
        from sheetkit.analysis.resume import read_resume_code  # here: the page loads sooner without it (_code_of)

        t = self.table
        try:
            back = read_resume_code(code, game=t.GAME)
        except SheetkitError as e:
            t._fail(f"The game in this page's link could not be brought back ({e}); here is its deal from the "
                    "start.")
            return False
        t._adopt(back.state, advance=False)
        t.bots = dict(back.bots)     # the replay's bots: their random streams stand where the table's stood
        t.bot_kinds = list(back.kinds)
        t._render([], message="Your game is back where you left it.")
        return True

    def update(self) -> None:
        """After a change: bring the resume code up to date — after the handler that made the change, when a kernel
        runs one (the code replays the game: a few ms that need not delay the click's drawing), else at once."""
        st = self.table.state
        key = (id(st), len(st.log), tuple(self.table.bot_kinds))
        if key == self._key:
            return
        self._key = key
        self._dirty = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:     # plain Python (no browser to show it): worked out when ``code`` is asked for
            return
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._write)

    @property
    def code(self) -> str | None:
        """The game's resume code now (None: this game has none, e.g. pass-and-play)."""
        if self._dirty:
            self._write()
        return self._code

    def _write(self) -> None:
        self._scheduled = False
        st, kinds = self.table.state, list(self.table.bot_kinds)
        if self._dirty and any(getattr(b, "slow", False) for b in self.table.bots.values()) and _loop_running():
            # The code replays the bots: a slow one (the expert) would hold the kernel for its whole game again,
            # so the replay runs on a worker thread and its answer is shown if the game has not moved on since.
            key, copy = self._key, st.clone()
            off_click_path(lambda: _code_of(copy, kinds),
                           lambda job: self._show(job.result, st, kinds) if key == self._key and not job.error
                           else None, "sheetkit-resume")
            return
        self._dirty = False
        self._show(_code_of(st, kinds), st, kinds)

    def _show(self, code: str | None, st: GameState, kinds: list[str]) -> None:
        """Show ``code`` under the table and in the page's link."""
        self._dirty = False
        self._code = code
        if code:
            self.line.value = (f"<span class='sk-small'>Resume code <code class='sk-resume-code'>{html.escape(code)}"
                               "</code> — this page's link keeps your game: reload, and it is back.</span>")
        else:
            self.line.value = ""
        deal = st.game_code() if hasattr(st, "game_code") else None
        if self._linked and (code or deal):
            self.table.page.query = link_query(self._query, deal, kinds, code)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _code_of(st: GameState, kinds: list[str]) -> str | None:
    """The resume code of ``st`` against ``kinds``, or None when it has none."""
    # imported at the first code, after the page's cells: the analysis modules are a tenth of the page's imports
    from sheetkit.analysis.resume import resume_code

    try:
        return resume_code(st, kinds) if any("player" in e for e in st.log) else None
    except SheetkitError:
        return None     # e.g. pass-and-play, or a record loaded mid-game: Save keeps those
    except Exception:   # never let the link break the table
        return None
