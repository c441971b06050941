"""What a table hands out: the record to download, the share line, the result code at the end."""

from __future__ import annotations

import base64
import html
import os
import traceback
from typing import Any

from sheetkit.widgets.lazy import built
from sheetkit.widgets.off_click import Job, off_click_path
from sheetkit.widgets.query import share_query

from sheetkit.core.errors import SheetkitError
from sheetkit.core.protocol import GameState
from sheetkit.core.records import dumps


class TableShare:
    """The record, the share line and the result code (a mixin of ``GameTable``)."""

    def _download_link(self) -> str:
        st = self.state
        text = dumps(st.to_record())
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        stem = st.game_code() or "deal"
        when = "final" if st.is_terminal() else self._progress()
        filename = f"{self.GAME}-{stem}-{when}.json"
        return (f"<a class='sk-download' download='{html.escape(filename)}' "
                f"href='data:application/json;base64,{data}'>⬇ {html.escape(filename)}</a>")

    def _share_html(self) -> str:
        code = self.state.game_code()
        if not code:
            return "<span class='sk-small'>This deal has no code; Save the record to share it.</span>"
        query = share_query(code, self.bot_kinds, hints=self.hints.allowed)
        link = ""
        if os.environ.get("SERVER_SOFTWARE", "").startswith("voila"):
            link = f" — or send <a href='?{html.escape(query)}' target='_blank'>this link</a>"
        return (f"<div>Share {self.SHARE_WHAT}: game code <b class='sk-code-share'>{html.escape(code)}</b>{link}. "
                f"Whoever plays it gets {self.SHARE_GETS}.</div>"
                f"<div class='sk-small'>The analysis below the table has filled in for this game.</div>")

    def _show_result_code(self) -> None:
        """At the game's end, the result code beside Save (for class play: sheetkit.analysis.results).

        Writing it replays the game with the bots; with a slow bot that takes as long as its game did, so it is
        worked out off the click path then."""
        st = self.state
        key = (id(st), len(st.log), self.hints.used) if st.is_terminal() else None
        if key == self._result_key:
            return
        self._result_key = key
        self._code_job = None
        if key is None and not built(self, "result_code"):
            return
        self.result_code.layout.display = "none" if key is None else "flex"
        if key is None:
            self.result_code.value = ""
            return
        self.result_code.value = "<span class='sk-small'>Result code: working it out…</span>"
        kinds = list(self.bot_kinds)
        if not any(getattr(bot, "slow", False) for bot in self.bots.values()):
            self.result_code.value = self._result_code_html(st, kinds, self.hints.used)
            return
        copy = st.clone()
        hints = self.hints.used
        self._code_job = off_click_path(lambda: self._result_code_html(copy, kinds, hints),
                                        lambda job: self._finish_code(key, job), f"sheetkit-{self.GAME}-code")

    def _finish_code(self, key: Any, job: Job) -> None:
        """On the kernel's thread: show a result code worked out off the click path, if it is still this game's."""
        if self._code_job is not job or self._result_key != key:
            return
        self._code_job = None
        if job.error is not None:
            self.last_error = job.error
        self.result_code.value = job.result if job.error is None else \
            "<span class='sk-small'>No result code for this game — send the record file (Save).</span>"

    def _result_code_html(self, st: GameState, kinds: list[str], hints: bool = False) -> str:
        """The result code line for a finished game (or why there is none)."""
        from sheetkit.analysis.results import result_code  # here, at a game's end: the page loads sooner without it

        try:
            return (f"Result code: <code class='sk-result-text' style='user-select: all'>"
                    f"{html.escape(result_code(st, kinds, hints=hints))}</code>"
                    + (" <span class='sk-small'>(hints used)</span>" if hints else ""))
        except SheetkitError as e:  # e.g. a record loaded mid-game: its bots had other seeds
            return f"<span class='sk-small'>No result code: {html.escape(str(e))}.</span>"
        except Exception:  # the game itself is fine: never let the code break the finished table
            self.last_error = traceback.format_exc()
            return "<span class='sk-small'>No result code for this game — send the record file (Save).</span>"
