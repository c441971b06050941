"""Counts what the canvases send: every message through ipycanvas's one shared canvas manager."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from ipycanvas.canvas import _CMD_LIST
from sheetkit.widgets import canvas_manager


class Recorder:
    """Records every message the canvases send: one entry per message, as (canvas id, command) pairs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.messages: list[list[tuple[str, str]]] = []
        manager = canvas_manager()
        original = manager._send_custom

        def send(command: Any, buffers: Any = None) -> Any:
            self.messages.append(self._decode(command))
            return original(command, buffers or [])

        monkeypatch.setattr(manager, "_send_custom", send)

    @staticmethod
    def _decode(command: Any) -> list[tuple[str, str]]:
        cmds = command if command and isinstance(command[0], list) else [command]
        out, current = [], "?"
        for c in cmds:
            name = _CMD_LIST[c[0]]
            if name == "switchCanvas":
                current = c[1][0].replace("IPY_MODEL_", "")
            else:
                out.append((current, name))
        return out

    def clear(self) -> None:
        self.messages.clear()

    def count(self) -> int:
        return len(self.messages)

    def _picked(self, k: int | None) -> list[tuple[str, str]]:
        return [pair for m in (self.messages if k is None else [self.messages[k]]) for pair in m]

    def canvases(self, k: int | None = -1) -> set[str]:
        """The canvases drawn on by message ``k`` (default: the last; None: every message since ``clear``)."""
        return {cid for cid, _ in self._picked(k)}

    def commands(self, canvas: Any, k: int | None = -1) -> Counter[str]:
        """The commands sent to ``canvas`` by message ``k`` (default: the last; None: every message since ``clear``)."""
        return Counter(name for cid, name in self._picked(k) if cid == canvas.model_id)
