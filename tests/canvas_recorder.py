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

    def canvases(self, k: int = -1) -> set[str]:
        return {cid for cid, _ in self.messages[k]}

    def commands(self, canvas: Any, k: int = -1) -> Counter[str]:
        return Counter(name for cid, name in self.messages[k] if cid == canvas.model_id)
